import { Type, type Static, type TSchema } from 'typebox';
import { Id, QueryBool, Timestamp } from '../../platform/http-schemas.js';
import { WriteBody } from '../../platform/write-bodies.js';
import { CONNECTION_SUBTYPES, CONNECTION_TYPES } from '../../sources/index.js';

const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];
import { MASK } from '../../redaction/index.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const ConnectionTypeSchema = Type.Enum([...CONNECTION_TYPES]);
const ConnectionSubTypeSchema = Type.Enum([...CONNECTION_SUBTYPES]);
const SslModeSchema = Type.Enum([...SSL_MODES]);

const FreeObject = Type.Object({}, { additionalProperties: true });
const ObjectOrArray = Type.Union([FreeObject, Type.Array(Type.Unknown(), { maxItems: 1000 })]);

/**
 * `port` is a string in and out, as the contract says: a JSON number is a 400 naming `body.port`
 * (bodies are never coerced). An optional leading ':' is kept for API connections, whose port is
 * appended to the URL.
 */
const PortInput = Type.String({ pattern: '^(:?[0-9]{1,5})?$', description: 'A string of digits, e.g. "5432"; a number is refused' });

/** Project ids are answered as strings (spec) but accepted as integers or numeric strings. */
const ProjectIdInput = Type.Union([Id, Type.String({ pattern: '^[1-9][0-9]{0,9}$' })]);

const Secret = (max: number) => Type.String({ maxLength: max, description: `Never returned; "${MASK}" keeps the stored value` });

export const AuthenticationInput = Type.Object({
  type: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  token: Type.Optional(Nullable(Secret(10_000))),
  user: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  pass: Type.Optional(Nullable(Secret(10_000))),
});

/** Every field but name and type is optional on create and on update. */
const connectionFields = {
  project_ids: Type.Optional(Type.Array(ProjectIdInput, { maxItems: 1000 })),
  oauth_id: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  subType: Type.Optional(Nullable(ConnectionSubTypeSchema)),
  active: Type.Optional(Type.Boolean()),
  host: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  dbName: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  port: Type.Optional(Nullable(PortInput)),
  username: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  password: Type.Optional(Nullable(Secret(10_000))),
  srv: Type.Optional(Type.Boolean()),
  options: Type.Optional(Nullable(ObjectOrArray)),
  connectionString: Type.Optional(Nullable(Secret(10_000))),
  authentication: Type.Optional(Nullable(AuthenticationInput)),
  firebaseServiceAccount: Type.Optional(Nullable(FreeObject)),
  ssl: Type.Optional(Type.Boolean()),
  sslMode: Type.Optional(Nullable(SslModeSchema)),
  schema: Type.Optional(Nullable(ObjectOrArray)),
};

const Masked = (description: string) => Type.Optional(Nullable(Type.String({ description })));

/**
 * Secrets appear as "********" when set. Fields marked optional are absent for project roles,
 * which see neither credentials nor where the source lives.
 */
export const Connection = Type.Object({
  id: Type.Integer(),
  team_id: Type.Integer(),
  project_ids: Type.Array(Type.String()),
  oauth_id: Nullable(Type.String()),
  name: Type.String(),
  type: ConnectionTypeSchema,
  subType: ConnectionSubTypeSchema,
  active: Type.Boolean(),
  host: Type.Optional(Nullable(Type.String())),
  dbName: Type.Optional(Nullable(Type.String())),
  port: Type.Optional(Nullable(Type.String())),
  username: Type.Optional(Nullable(Type.String())),
  password: Masked(`"${MASK}" when set`),
  srv: Type.Boolean(),
  options: Type.Optional(Nullable(ObjectOrArray)),
  connectionString: Masked(`the password part is "${MASK}"`),
  authentication: Type.Optional(
    Nullable(
      Type.Object({
        type: Type.Optional(Nullable(Type.String())),
        token: Masked(`"${MASK}" when set`),
        user: Type.Optional(Nullable(Type.String())),
        pass: Masked(`"${MASK}" when set`),
      }),
    ),
  ),
  firebaseServiceAccount: Type.Optional(Nullable(FreeObject)),
  ssl: Type.Boolean(),
  sslMode: Nullable(SslModeSchema),
  sslCa: Masked('file name of the uploaded CA certificate'),
  sslCert: Masked('file name of the uploaded client certificate'),
  sslKey: Masked('file name of the uploaded client key'),
  schema: Nullable(ObjectOrArray),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'Connection' });
export type ConnectionView = Static<typeof Connection>;

const Name = Type.String({ minLength: 1, maxLength: 200 });

/**
 * Keys of Chartbrew's connection that Plotline does not keep: the project of the form it was made
 * in, the private-host switch (an operator setting here: PLOTLINE_ALLOW_PRIVATE_HOSTS), its SSH
 * tunnel settings (ignored: `useSsh` itself may only be false) and its associations.
 */
const CHARTBREW_CONNECTION_KEYS = [
  'project_id', 'allowPrivateHost', 'sshHost', 'sshPort', 'sshUsername', 'sshPassword', 'sshPrivateKey', 'sshPassphrase',
  'sshJumpHost', 'sshJumpPort', 'hasSshPassword', 'hasSshPrivateKey', 'hasSshPassphrase', 'OAuth',
];

const NoSsh = Type.Optional(Nullable(Type.Literal(false, { description: 'SSH tunnels are not supported: only false (or absent)' })));

/**
 * `team_id` comes from the path and SSL files from the upload route: in a body they are ignored,
 * as every key of the answer that is not writable.
 */
export const NewConnection = WriteBody(
  { name: Name, type: ConnectionTypeSchema, ...connectionFields, useSsh: NoSsh },
  { $id: 'CreateConnection', answer: Connection, ignored: CHARTBREW_CONNECTION_KEYS },
);
export type NewConnectionBody = Static<typeof NewConnection>;

export const ConnectionUpdate = WriteBody(
  { name: Type.Optional(Name), type: Type.Optional(ConnectionTypeSchema), ...connectionFields, useSsh: NoSsh },
  { $id: 'UpdateConnection', answer: Connection, ignored: CHARTBREW_CONNECTION_KEYS },
);
export type ConnectionUpdateBody = Static<typeof ConnectionUpdate>;

/**
 * An unsaved connection to test (`POST /team/{tid}/connections/{type}/test`): the fields of a
 * create, all optional. With `id`, a saved connection of the team being edited: fields sent as
 * "********" keep its stored values, and its uploaded SSL files are used.
 */
export const TestConnection = WriteBody(
  {
    id: Type.Optional(Nullable(Id)),
    name: Type.Optional(Name),
    type: Type.Optional(ConnectionTypeSchema),
    ...connectionFields,
    useSsh: NoSsh,
  },
  { $id: 'TestConnection', answer: Connection, ignored: CHARTBREW_CONNECTION_KEYS },
);
export type TestConnectionBody = Static<typeof TestConnection>;

/**
 * Chartbrew's client puts the connection's type where the saved test has its id
 * (`…/connections/postgres/test`); the segment keeps the id's name, so that both routes are one
 * path of the OpenAPI document.
 */
export const TestConnectionParams = Type.Object({
  team_id: Id,
  connection_id: Type.String({ maxLength: 100, description: 'The connection type (`postgres`, `api`…); a `type` in the body wins' }),
});

export const ConnectionParams = Type.Object({ team_id: Id, connection_id: Id });

export const DeleteQuery = Type.Object({ removeDatasets: Type.Optional(QueryBool) });

export const Provider = Type.Object({
  id: ConnectionSubTypeSchema,
  type: ConnectionTypeSchema,
  subType: ConnectionSubTypeSchema,
  name: Type.String(),
  category: Type.String(),
  description: Type.String(),
  capabilities: Type.Object({
    test: Type.Boolean(),
    schema: Type.Boolean(),
    query: Type.Boolean(),
    pushdown: Type.Boolean(),
    streaming: Type.Boolean(),
  }),
}, { $id: 'ConnectionProvider' });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const CONNECTION_COMPONENTS = [NewConnection, ConnectionUpdate, TestConnection, Connection, Provider];

import { Type, type Static, type TSchema } from 'typebox';
import { Id, QueryBool, Timestamp } from '../../platform/http-schemas.js';
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

const Name = Type.String({ minLength: 1, maxLength: 200 });

/** `team_id` comes from the path; a body `team_id` (and SSL files) are ignored like unknown fields. */
export const NewConnection = Type.Object({ name: Name, type: ConnectionTypeSchema, ...connectionFields }, { $id: 'CreateConnection' });
export type NewConnectionBody = Static<typeof NewConnection>;

export const ConnectionUpdate = Type.Object({ name: Type.Optional(Name), type: Type.Optional(ConnectionTypeSchema), ...connectionFields }, { $id: 'UpdateConnection' });
export type ConnectionUpdateBody = Static<typeof ConnectionUpdate>;

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
export const CONNECTION_COMPONENTS = [NewConnection, ConnectionUpdate, Connection, Provider];

import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { AppError, BadRequestError, ValidationError } from '../../errors/index.js';
import { schemaValidationError } from '../../platform/errors.js';
import { MASK } from '../../redaction/index.js';
import { actorOf } from '../../platform/auth.js';
import { Ref, Removed, TeamParams, parseQueryBool } from '../../platform/http-schemas.js';
import { Connection, ConnectionParams, ConnectionUpdate, DeleteQuery, NewConnection, Provider, TestConnection, TestConnectionParams } from './connections-schemas.js';
import type { ConnectionChecks } from './connection-checks.js';
import { FILE_FIELDS, type ConnectionFiles, type ConnectionsService, type FileField } from './connections-service.js';

/** Per uploaded file; a larger one is a 413. */
const MAX_FILE_BYTES = 1024 * 1024;

const noFiles = () => new BadRequestError('No files were uploaded; send sslCa, sslCert or sslKey as multipart/form-data file parts', 'NO_FILES');

function isFileField(name: string): name is FileField {
  return (FILE_FIELDS as readonly string[]).includes(name);
}

/** The base name only, without control characters: it is shown back and may end up in logs. */
function cleanFileName(name: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const base = path.posix.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255);
  return base === '' || base === '.' || base === '..' ? fallback : base;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Certificates and keys are PEM text; anything else could not be handed to TLS later. */
function decodePem(field: FileField, buffer: Buffer): string {
  let text: string;
  try {
    text = utf8.decode(buffer);
  } catch {
    throw new BadRequestError(`${field} must be a PEM (text) file`, 'INVALID_FILE');
  }
  if (text.includes('\u0000')) throw new BadRequestError(`${field} must be a PEM (text) file`, 'INVALID_FILE');
  return text;
}

/** What a form sends for a file input left empty: Chartbrew's client appends the null it holds (`sslCa=null`). */
const EMPTY_FIELD_VALUES = new Set(['', 'null', 'undefined']);

/** A multipart form as the connection routes read it. */
interface ConnectionForm {
  files: ConnectionFiles;
  /** Text parts that name a file field but carry no file (an input left empty). */
  placeholders: number;
  /** The text parts asked for by name, each at most once: a string, or a value when the part said it was JSON. */
  fields: Map<string, unknown>;
}

/**
 * Reads the sslCa / sslCert / sslKey file parts into memory (nothing is written to disk), and the
 * text parts named in `textFields`; other text parts are ignored.
 */
async function readForm(request: FastifyRequest, textFields: ReadonlySet<string> = new Set()): Promise<ConnectionForm> {
  if (!request.isMultipart()) throw noFiles();
  const files: ConnectionFiles = {};
  const fields = new Map<string, unknown>();
  let placeholders = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        if (textFields.has(part.fieldname)) {
          if (fields.has(part.fieldname)) throw ValidationError.field(`body.${part.fieldname}`, 'was sent more than once');
          fields.set(part.fieldname, part.value);
        } else if (isFileField(part.fieldname) && typeof part.value === 'string' && EMPTY_FIELD_VALUES.has(part.value.trim())) {
          placeholders += 1;
        }
        continue;
      }
      const field = part.fieldname;
      if (!isFileField(field)) {
        throw new BadRequestError(`Invalid connection file field "${field.slice(0, 100)}"; use sslCa, sslCert or sslKey`, 'INVALID_FILE_FIELD');
      }
      if (files[field]) throw new BadRequestError(`${field} was sent more than once`, 'INVALID_FILE_FIELD');
      const buffer = await part.toBuffer();
      // Browsers send an empty part for a file input left blank.
      if (buffer.length === 0) continue;
      files[field] = { filename: cleanFileName(part.filename, field), content: decodePem(field, buffer) };
    }
  } catch (err) {
    // Ours and the plugin's limit errors carry a status; anything else is the parser rejecting the body.
    if (err instanceof AppError || typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err;
    throw new BadRequestError('The multipart/form-data body is malformed', 'INVALID_MULTIPART');
  }
  return { files, placeholders, fields };
}

/** `POST …/files`: at least one file part, or a text part standing for an empty file input. */
async function readFiles(request: FastifyRequest): Promise<{ files: ConnectionFiles; placeholders: number }> {
  const { files, placeholders } = await readForm(request);
  if (Object.keys(files).length === 0 && placeholders === 0) throw noFiles();
  return { files, placeholders };
}

/** A compiled validator of `schema` as a type guard: a value it passes is of the schema's type. */
function passes<T extends TSchema>(_schema: T, validate: (value: unknown) => boolean, value: unknown): value is Static<T> {
  return validate(value);
}

/** The text part that holds the unsaved connection of `POST …/{type}/test/files`. */
const CONNECTION_PART = 'connection';

/**
 * The `connection` part as an object: Chartbrew's app sends `JSON.stringify(connection)` as a text
 * part (a part sent as `application/json` arrives parsed already).
 */
function connectionOf(raw: unknown): unknown {
  if (raw === undefined) throw ValidationError.field(`body.${CONNECTION_PART}`, 'is required: the connection to test, as JSON text');
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw ValidationError.field(`body.${CONNECTION_PART}`, 'must be the connection as JSON text');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw ValidationError.field(`body.${CONNECTION_PART}`, 'must be a JSON object');
  return value;
}

export const connectionRoutes: FastifyPluginAsyncTypebox<{ connections: ConnectionsService; checks: ConnectionChecks }> = async (app, { connections, checks }) => {
  const tags = ['connections'];

  // Registered in this plugin's scope only: no other route accepts multipart bodies.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: MAX_FILE_BYTES, files: FILE_FIELDS.length, fields: 20, fieldSize: 64 * 1024, parts: 30, headerPairs: 100 },
  });

  app.get(
    '/connection-providers',
    {
      schema: { tags, operationId: 'listConnectionProviders', summary: 'Every connection type and sub-type with its capabilities', response: { 200: Type.Array(Ref(Provider)) } },
    },
    async () => checks.providers(),
  );

  app.get(
    '/team/:team_id/connections',
    {
      schema: {
        tags,
        operationId: 'listConnections',
        summary: "The team's connections (project roles: those of their projects, without credentials)",
        params: TeamParams,
        response: { 200: Type.Array(Ref(Connection)) },
      },
    },
    async (request) => connections.list(actorOf(request), request.params.team_id),
  );

  app.post(
    '/team/:team_id/connections',
    {
      schema: {
        tags,
        operationId: 'createConnection',
        summary: 'Create a connection (teamOwner, teamAdmin)',
        params: TeamParams,
        body: Ref(NewConnection, {
          examples: [
            { name: 'Shop database', type: 'postgres', host: 'db.example.com', port: '5432', dbName: 'shop', username: 'reader', password: 'secret', ssl: true, sslMode: 'require' },
          ],
        }),
        response: { 200: Ref(Connection) },
      },
    },
    async (request) => connections.create(actorOf(request), request.params.team_id, request.body),
  );

  app.get(
    '/team/:team_id/connections/:connection_id',
    { schema: { tags, operationId: 'getConnection', summary: 'Get a connection; secrets read "********"', params: ConnectionParams, response: { 200: Ref(Connection) } } },
    async (request) => connections.get(actorOf(request), request.params.team_id, request.params.connection_id),
  );

  app.put(
    '/team/:team_id/connections/:connection_id',
    {
      schema: {
        tags,
        operationId: 'updateConnection',
        summary: 'Update a connection; "********" keeps a stored secret',
        params: ConnectionParams,
        body: Ref(ConnectionUpdate, { examples: [{ name: 'Shop database (replica)', host: 'replica.example.com', password: MASK }] }),
        response: { 200: Ref(Connection) },
      },
    },
    async (request) => connections.update(actorOf(request), request.params.team_id, request.params.connection_id, request.body),
  );

  app.delete(
    '/team/:team_id/connections/:connection_id',
    {
      schema: {
        tags,
        operationId: 'deleteConnection',
        summary: 'Delete a connection; removeDatasets=true also deletes the datasets that use it',
        params: ConnectionParams,
        querystring: DeleteQuery,
        response: { 200: Ref(Removed) },
      },
    },
    async (request) => {
      const { team_id, connection_id } = request.params;
      await connections.remove(actorOf(request), team_id, connection_id, parseQueryBool(request.query.removeDatasets));
      return { removed: true };
    },
  );

  app.post(
    '/team/:team_id/connections/:connection_id/files',
    {
      schema: {
        tags,
        operationId: 'uploadConnectionFiles',
        summary: 'Upload SSL files (multipart parts sslCa, sslCert, sslKey; 1 MiB each); a text part sslCa=null (an input left empty) is ignored',
        consumes: ['multipart/form-data'],
        params: ConnectionParams,
        response: { 200: Ref(Connection) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const { team_id, connection_id } = request.params;
      await connections.assertWritable(actor, team_id, connection_id);
      const { files } = await readFiles(request);
      // Only empty inputs (`sslCa=null`): nothing to store, the connection as it is.
      if (Object.keys(files).length === 0) return connections.get(actor, team_id, connection_id);
      return connections.attachFiles(actor, team_id, connection_id, files);
    },
  );

  app.get(
    '/team/:team_id/connections/:connection_id/test',
    {
      schema: {
        tags,
        operationId: 'testConnection',
        summary: 'Connect and check the credentials',
        params: ConnectionParams,
        response: { 200: Type.Object({ success: Type.Boolean() }) },
      },
    },
    async (request) => checks.test(actorOf(request), request.params.team_id, request.params.connection_id),
  );

  app.post(
    '/team/:team_id/connections/:connection_id/test',
    {
      schema: {
        tags,
        operationId: 'testUnsavedConnection',
        summary: 'Connect with a connection that is not saved (or an edited one, by its id) and check the credentials; nothing is stored',
        params: TestConnectionParams,
        body: Ref(TestConnection, {
          examples: [{ name: 'Shop database', type: 'postgres', host: 'db.example.com', port: '5432', dbName: 'shop', username: 'reader', password: 'secret' }],
        }),
        response: { 200: Type.Object({ success: Type.Boolean() }) },
      },
    },
    async (request) => checks.testUnsaved(actorOf(request), request.params.team_id, request.params.connection_id, request.body),
  );

  app.post(
    '/team/:team_id/connections/:connection_id/test/files',
    {
      schema: {
        tags,
        operationId: 'testUnsavedConnectionWithFiles',
        summary:
          'Test a connection that is not saved with SSL files (multipart: a "connection" text part holding the connection as JSON, as for …/test, and file parts sslCa, sslCert, sslKey of 1 MiB each; sslCa=null text parts are ignored). Files are read in memory and nothing is stored',
        consumes: ['multipart/form-data'],
        params: TestConnectionParams,
        response: { 200: Type.Object({ success: Type.Boolean() }) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const { team_id, connection_id: type } = request.params;
      // Refused before the upload is read.
      await checks.assertMayTest(actor, team_id);
      const { files, fields } = await readForm(request, new Set([CONNECTION_PART]));
      const connection = connectionOf(fields.get(CONNECTION_PART));
      // The check of `…/test`'s body, read-only keys dropped, errors named under body.connection.
      const validate = request.compileValidationSchema(Ref(TestConnection), 'body');
      if (!passes(TestConnection, validate, connection)) throw schemaValidationError(`body.${CONNECTION_PART}`, validate.errors);
      return checks.testUnsaved(actor, team_id, type, connection, files);
    },
  );

  app.get(
    '/team/:team_id/connections/:connection_id/schema',
    {
      schema: {
        tags,
        operationId: 'getConnectionSchema',
        summary: 'Introspect tables (or collections) with their columns and types; saved on the connection',
        params: ConnectionParams,
        response: { 200: Type.Object({ schema: Type.Unknown() }) },
      },
    },
    async (request) => checks.schema(actorOf(request), request.params.team_id, request.params.connection_id),
  );
};

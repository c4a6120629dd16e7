import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Double, Long, calculateObjectSize, deserialize, serialize, type Document } from 'bson';
import { aggregate as mingoAggregate, find as mingoFind } from 'mingo';

/*
 * A MongoDB-wire-compatible server for tests, on loopback. No mongod can be installed on this
 * machine, so this stands in for one: the real `mongodb` driver connects to it over TCP and speaks
 * real OP_MSG (and OP_QUERY for its first handshake), encoded with `bson`; `mingo` evaluates
 * filters, projections, sorts and aggregation pipelines.
 *
 * It answers the commands the MongoDB source and its tests use: hello/isMaster, ping, buildInfo,
 * find, getMore, killCursors, aggregate, count, distinct, listCollections, insert, drop,
 * dropDatabase, endSessions. It does NOT implement authentication, TLS, `maxTimeMS`, indexes,
 * transactions or collation: tests that need those run only against a real server
 * (PLOTLINE_TEST_MONGO_URL). Documents live in memory, per database and collection.
 */

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const HEADER_BYTES = 16;
const MAX_MESSAGE_BYTES = 48_000_000;
const DEFAULT_BATCH = 101;
/** A server batch holds at most this many bytes of documents (and always at least one), as mongod's does. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

interface OpenCursor {
  ns: string;
  documents: Document[];
  at: number;
}

/** A command failed the way a server fails one: `{ok: 0, errmsg, code, codeName}`. */
class CommandError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly codeName: string,
  ) {
    super(message);
  }
}

export interface MongoWireServer {
  /** `mongodb://127.0.0.1:<port>/?directConnection=true` */
  readonly url: string;
  readonly port: number;
  /** Every command name received, in order (tests check which commands the driver sent). */
  readonly commands: string[];
  /** Every command document received, in order (tests check the fields the driver sent, such as `maxTimeMS`). */
  readonly received: Document[];
  /** Cursors the server still holds open. */
  openCursors(): number;
  /** Delays every answer to these commands (lower-case names) by `ms`, to stand for a slow query. */
  stall(commandNames: string[], ms: number): void;
  close(): Promise<void>;
}

export async function startMongoWireServer(): Promise<MongoWireServer> {
  const databases = new Map<string, Map<string, Document[]>>();
  const cursors = new Map<number, OpenCursor>();
  const commands: string[] = [];
  const received: Document[] = [];
  const sockets = new Set<Socket>();
  let nextCursorId = 1;
  let nextRequestId = 1;
  let connectionIds = 0;
  let stalled = { names: new Set<string>(), ms: 0 };

  const collection = (db: string, name: string, create = false): Document[] => {
    let dbMap = databases.get(db);
    if (!dbMap) {
      if (!create) return [];
      dbMap = new Map();
      databases.set(db, dbMap);
    }
    let docs = dbMap.get(name);
    if (!docs) {
      if (!create) return [];
      docs = [];
      dbMap.set(name, docs);
    }
    return docs;
  };

  /** The documents from `at` that one batch holds: `size` of them, fewer when they pass 16 MiB. */
  const batchOf = (documents: Document[], at: number, size: number): Document[] => {
    let end = at;
    let bytes = 0;
    while (end < documents.length && end - at < size) {
      bytes += calculateObjectSize(documents[end]!);
      if (bytes > MAX_BATCH_BYTES && end > at) break;
      end++;
    }
    return documents.slice(at, end);
  };

  const cursorReply = (ns: string, documents: Document[], batchSize: number | undefined, singleBatch = false): Document => {
    const size = batchSize && batchSize > 0 ? batchSize : DEFAULT_BATCH;
    const firstBatch = singleBatch ? documents.slice(0, size) : batchOf(documents, 0, size);
    let id = 0;
    if (!singleBatch && documents.length > firstBatch.length) {
      id = nextCursorId++;
      cursors.set(id, { ns, documents, at: firstBatch.length });
    }
    return { cursor: { firstBatch, id: Long.fromNumber(id), ns }, ok: new Double(1) };
  };

  const runPipeline = (documents: Document[], pipeline: Document[]): Document[] => {
    // $sample draws without replacement, as MongoDB does (mingo's $sample draws with replacement).
    let out = documents;
    let pending: Document[] = [];
    const flush = (): void => {
      if (pending.length > 0) out = mingoAggregate(out, pending) as Document[];
      pending = [];
    };
    for (const stage of pipeline) {
      if (stage && typeof stage === 'object' && '$sample' in stage) {
        flush();
        const size = Number((stage['$sample'] as { size?: unknown }).size ?? 0);
        out = shuffle([...out]).slice(0, Math.max(0, size));
      } else pending.push(stage);
    }
    flush();
    return out;
  };

  const evaluate = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof CommandError) throw error;
      throw new CommandError(error instanceof Error ? error.message : String(error), 2, 'BadValue');
    }
  };

  const handlers: Record<string, (cmd: Document, db: string, connectionId: number) => Document> = {
    hello: (_cmd, _db, connectionId) => ({
      helloOk: true,
      ismaster: true,
      isWritablePrimary: true,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: MAX_MESSAGE_BYTES,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
      ok: new Double(1),
    }),
    ping: () => ({ ok: new Double(1) }),
    buildinfo: () => ({ version: '7.0.0', versionArray: [7, 0, 0, 0], ok: new Double(1) }),
    endsessions: () => ({ ok: new Double(1) }),
    find: (cmd, db) => {
      const name = String(cmd['find']);
      const found = evaluate(() => {
        let cursor = mingoFind(collection(db, name), (cmd['filter'] ?? {}) as Document, cmd['projection'] as Document | undefined);
        if (cmd['sort'] && Object.keys(cmd['sort'] as Document).length > 0) cursor = cursor.sort(cmd['sort'] as Record<string, 1 | -1>);
        if (cmd['skip']) cursor = cursor.skip(Number(cmd['skip']));
        const limit = Math.abs(Number(cmd['limit'] ?? 0));
        if (limit > 0) cursor = cursor.limit(limit);
        return cursor.all() as Document[];
      });
      return cursorReply(`${db}.${name}`, found, numberOrUndefined(cmd['batchSize']), cmd['singleBatch'] === true);
    },
    getmore: (cmd) => {
      const id = Number(cmd['getMore']);
      const open = cursors.get(id);
      if (!open) throw new CommandError(`cursor id ${id} not found`, 43, 'CursorNotFound');
      const size = numberOrUndefined(cmd['batchSize']) ?? DEFAULT_BATCH;
      const nextBatch = batchOf(open.documents, open.at, size);
      open.at += nextBatch.length;
      const done = open.at >= open.documents.length;
      if (done) cursors.delete(id);
      return { cursor: { nextBatch, id: Long.fromNumber(done ? 0 : id), ns: open.ns }, ok: new Double(1) };
    },
    killcursors: (cmd) => {
      const killed: Long[] = [];
      for (const raw of (cmd['cursors'] ?? []) as unknown[]) {
        const id = Number(raw);
        if (cursors.delete(id)) killed.push(Long.fromNumber(id));
      }
      return { cursorsKilled: killed, cursorsNotFound: [], cursorsAlive: [], cursorsUnknown: [], ok: new Double(1) };
    },
    aggregate: (cmd, db) => {
      const name = String(cmd['aggregate']);
      const pipeline = (cmd['pipeline'] ?? []) as Document[];
      const out = evaluate(() => runPipeline(collection(db, name), pipeline));
      return cursorReply(`${db}.${name}`, out, numberOrUndefined((cmd['cursor'] as Document | undefined)?.['batchSize']));
    },
    count: (cmd, db) => {
      const docs = collection(db, String(cmd['count']));
      const n = evaluate(() => (cmd['query'] ? mingoFind(docs, cmd['query'] as Document).all().length : docs.length));
      return { n, ok: new Double(1) };
    },
    distinct: (cmd, db) => {
      const key = String(cmd['key']);
      const docs = evaluate(() => mingoFind(collection(db, String(cmd['distinct'])), (cmd['query'] ?? {}) as Document).all() as Document[]);
      const seen = new Map<string, unknown>();
      for (const doc of docs) {
        const value = valueAt(doc, key);
        for (const item of Array.isArray(value) ? value : [value]) {
          if (item === undefined) continue;
          const id = Buffer.from(serialize({ v: item })).toString('base64');
          if (!seen.has(id)) seen.set(id, item);
        }
      }
      return { values: [...seen.values()].sort(compareValues), ok: new Double(1) };
    },
    listcollections: (cmd, db) => {
      const names = [...(databases.get(db)?.keys() ?? [])];
      const infos = names.map((name) => ({ name, type: 'collection', options: {}, info: { readOnly: false } }));
      const filtered = evaluate(() => (cmd['filter'] ? (mingoFind(infos, cmd['filter'] as Document).all() as Document[]) : infos));
      const shaped = cmd['nameOnly'] ? filtered.map((c) => ({ name: c['name'], type: c['type'] })) : filtered;
      return cursorReply(`${db}.$cmd.listCollections`, shaped, numberOrUndefined((cmd['cursor'] as Document | undefined)?.['batchSize']));
    },
    insert: (cmd, db) => {
      const docs = collection(db, String(cmd['insert']), true);
      const incoming = (cmd['documents'] ?? []) as Document[];
      docs.push(...incoming);
      return { n: incoming.length, ok: new Double(1) };
    },
    drop: (cmd, db) => {
      const existed = databases.get(db)?.delete(String(cmd['drop'])) ?? false;
      if (!existed) throw new CommandError('ns not found', 26, 'NamespaceNotFound');
      return { ok: new Double(1) };
    },
    dropdatabase: (_cmd, db) => {
      databases.delete(db);
      return { dropped: db, ok: new Double(1) };
    },
  };
  handlers['ismaster'] = handlers['hello']!;

  const execute = (cmd: Document, db: string, connectionId: number): Document => {
    const name = Object.keys(cmd)[0] ?? '';
    commands.push(name);
    received.push(cmd);
    const handler = handlers[name.toLowerCase()];
    if (!handler) return { ok: new Double(0), errmsg: `no such command: '${name}'`, code: 59, codeName: 'CommandNotFound' };
    try {
      return handler(cmd, db, connectionId);
    } catch (error) {
      if (error instanceof CommandError) return { ok: new Double(0), errmsg: error.message, code: error.code, codeName: error.codeName };
      return { ok: new Double(0), errmsg: error instanceof Error ? error.message : String(error), code: 1, codeName: 'InternalError' };
    }
  };

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const connectionId = ++connectionIds;
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4) {
        const length = buffered.readInt32LE(0);
        if (length < HEADER_BYTES || length > MAX_MESSAGE_BYTES) {
          socket.destroy();
          return;
        }
        if (buffered.length < length) break;
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        const name = commandName(message);
        const reply = answer(message, connectionId);
        if (!reply) continue;
        if (stalled.ms > 0 && stalled.names.has(name)) setTimeout(() => socket.writable && socket.write(reply), stalled.ms).unref();
        else socket.write(reply);
      }
    });
  });

  const answer = (message: Buffer, connectionId: number): Buffer | undefined => {
    const requestId = message.readInt32LE(4);
    const opCode = message.readInt32LE(12);
    if (opCode === OP_MSG) {
      const flags = message.readUInt32LE(HEADER_BYTES);
      const end = flags & 1 ? message.length - 4 : message.length;
      let at = HEADER_BYTES + 4;
      let body: Document = {};
      const sequences: Record<string, Document[]> = {};
      while (at < end) {
        const kind = message[at]!;
        at += 1;
        if (kind === 0) {
          const size = message.readInt32LE(at);
          body = deserialize(message.subarray(at, at + size));
          at += size;
        } else {
          const size = message.readInt32LE(at);
          const sectionEnd = at + size;
          let cursor = at + 4;
          const nul = message.indexOf(0, cursor);
          const identifier = message.toString('utf8', cursor, nul);
          cursor = nul + 1;
          const docs: Document[] = [];
          while (cursor < sectionEnd) {
            const docSize = message.readInt32LE(cursor);
            docs.push(deserialize(message.subarray(cursor, cursor + docSize)));
            cursor += docSize;
          }
          sequences[identifier] = docs;
          at = sectionEnd;
        }
      }
      Object.assign(body, sequences);
      const db = String(body['$db'] ?? 'admin');
      const reply = execute(body, db, connectionId);
      // moreToCome (bit 1): the client expects no answer.
      if (flags & 2) return undefined;
      return opMsg(requestId, reply);
    }
    if (opCode === OP_QUERY) {
      let at = HEADER_BYTES + 4;
      const nul = message.indexOf(0, at);
      const fullName = message.toString('utf8', at, nul);
      at = nul + 1 + 8;
      const size = message.readInt32LE(at);
      let query = deserialize(message.subarray(at, at + size));
      // The handshake may wrap the command as {$query: {...}}.
      if (query['$query']) query = query['$query'] as Document;
      const db = fullName.split('.')[0] ?? 'admin';
      return opReply(requestId, execute(query, db, connectionId));
    }
    return opMsg(requestId, { ok: new Double(0), errmsg: `unsupported opCode ${opCode}`, code: 2, codeName: 'BadValue' });
  };

  const header = (length: number, responseTo: number, opCode: number): Buffer => {
    const out = Buffer.alloc(HEADER_BYTES);
    out.writeInt32LE(length, 0);
    out.writeInt32LE(nextRequestId++, 4);
    out.writeInt32LE(responseTo, 8);
    out.writeInt32LE(opCode, 12);
    return out;
  };

  const opMsg = (responseTo: number, doc: Document): Buffer => {
    const body = serialize(doc);
    const length = HEADER_BYTES + 4 + 1 + body.length;
    const flags = Buffer.alloc(5);
    return Buffer.concat([header(length, responseTo, OP_MSG), flags, body]);
  };

  const opReply = (responseTo: number, doc: Document): Buffer => {
    const body = serialize(doc);
    const fields = Buffer.alloc(20);
    fields.writeInt32LE(0, 0); // responseFlags
    fields.writeBigInt64LE(0n, 4); // cursorID
    fields.writeInt32LE(0, 12); // startingFrom
    fields.writeInt32LE(1, 16); // numberReturned
    return Buffer.concat([header(HEADER_BYTES + fields.length + body.length, responseTo, OP_REPLY), fields, body]);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `mongodb://127.0.0.1:${port}/?directConnection=true`,
    port,
    commands,
    received,
    openCursors: () => cursors.size,
    stall: (names, ms) => {
      stalled = { names: new Set(names.map((n) => n.toLowerCase())), ms };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The command of an OP_MSG (the first key of its body), lower-case; '' for anything else. */
function commandName(message: Buffer): string {
  if (message.readInt32LE(12) !== OP_MSG || message[HEADER_BYTES + 4] !== 0) return '';
  const at = HEADER_BYTES + 5 + 4 + 1;
  return message.toString('utf8', at, message.indexOf(0, at)).toLowerCase();
}

function numberOrUndefined(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function valueAt(doc: Document, path: string): unknown {
  let current: unknown = doc;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Enough of MongoDB's BSON order for distinct's answer: numbers, then strings, then the rest. */
function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown): number => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

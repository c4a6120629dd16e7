/**
 * The contract between the service layer and every data source. Sources know nothing of teams,
 * users or HTTP routes: they get a decrypted connection, a data request and run options.
 */

export type SslMode = 'disable' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';

export type ApiAuthentication = {
  /** `oauth` (Google Analytics): `token` is the refresh token, `user` the client id, `pass` the client secret. */
  type: 'no_auth' | 'basic_auth' | 'bearer_token' | 'oauth';
  token?: string | null;
  user?: string | null;
  pass?: string | null;
};

/** A connection with its secrets already decrypted. Plain data; never logged, never returned. */
export interface SourceConnection {
  /** Stored id; `null`/`undefined` for a connection that is being tested before it is saved (no pooling). */
  id?: number | string | null;
  /** Changes whenever the stored connection changes; part of the pool key. */
  updatedAt?: string | Date | number | null;
  type: string;
  subType?: string | null;
  host?: string | null;
  /** A string, as stored. For HTTP APIs it is appended to the host (a leading ":" is added when missing). */
  port?: string | null;
  dbName?: string | null;
  username?: string | null;
  password?: string | null;
  /** MongoDB: use `mongodb+srv://`. */
  srv?: boolean | null;
  /**
   * HTTP API: global headers, `[{"Header": "value"}]` or `{"Header": "value"}`.
   * MongoDB: URL options in the same two shapes. A JSON string of either is accepted too.
   */
  options?: unknown;
  connectionString?: string | null;
  authentication?: ApiAuthentication | null;
  /** `null`/`undefined` means "use the sub-type's default". */
  ssl?: boolean | null;
  sslMode?: SslMode | null;
  /** PEM contents (not file paths). */
  sslCa?: string | null;
  sslCert?: string | null;
  sslKey?: string | null;
  firebaseServiceAccount?: string | null;
}

/** One header of a data request. */
export interface HeaderEntry {
  key: string;
  value: string;
}

export type PaginationTemplate = 'custom' | 'pages' | 'cursor' | 'url' | 'stripe';

/** The parts of a stored data request that a source reads. */
export interface DataRequestSpec {
  id?: number | string | null;
  /** HTTP method (API sources); GET when empty. */
  method?: string | null;
  /** API path and query string, appended to the connection's host and port. */
  route?: string | null;
  /** `[{key, value}]`; an object `{name: value}` is accepted too. */
  headers?: HeaderEntry[] | Record<string, string> | null;
  /** JSON text sent as the request body (not for GET/HEAD). */
  body?: string | null;
  /** Send the connection's global headers (default true). */
  useGlobalHeaders?: boolean | null;
  /** SQL text, or a MongoDB call chain. */
  query?: string | null;
  pagination?: boolean | null;
  items?: string | null;
  /** 0 or empty = every item (up to the page cap and the row limit). */
  itemsLimit?: number | null;
  offset?: string | null;
  paginationField?: string | null;
  template?: PaginationTemplate | string | null;
  configuration?: Record<string, unknown> | null;
  /** Source-side filters (Firestore): `[{field, operator, value, values?, collection?, type?}]`. */
  conditions?: unknown[] | null;
  /**
   * SQL sources: a statement already compiled with its bound values (a chart's pushdown query,
   * built around the user's compiled query). Runs instead of `query`, under the same read-only
   * guarantees; `{{variables}}` are not looked for in it.
   */
  compiled?: { text: string; values: readonly unknown[] } | null;
}

/** The type of one value: a scalar variable's, or each element of a list variable's. */
export type ScalarVariableType = 'string' | 'number' | 'boolean' | 'date';

/** A list of values of one scalar type. */
export type ListVariableType = `${ScalarVariableType}[]`;

/** A binding's type: a scalar, or a list of scalars (`string[]`, …). */
export type VariableType = ScalarVariableType | ListVariableType;

/** One converted value: `date` values are normalized strings (`YYYY-MM-DD` or an ISO 8601 UTC instant). */
export type ScalarValue = string | number | boolean;

/** A variable's value after conversion: a scalar, a list (never empty), or `null` for no value. */
export type VariableValue = ScalarValue | readonly ScalarValue[] | null;

export interface VariableBinding {
  name: string;
  type: VariableType;
  default_value?: string | null;
  required?: boolean | null;
}

/** A variable after precedence and type conversion; see `variables/resolve.ts`. */
export interface ResolvedVariable {
  readonly name: string;
  readonly type: VariableType;
  /**
   * Converted to the type: `date` values are normalized strings (`YYYY-MM-DD` or a full ISO 8601
   * UTC timestamp); a list type holds an array of at least one such value. `null` = no value.
   */
  readonly value: VariableValue;
  readonly origin: 'runtime' | 'configured' | 'default' | 'unset';
}

export interface ResolvedVariables {
  readonly values: ReadonlyMap<string, ResolvedVariable>;
}

export interface RunOptions {
  /** The output of `resolveVariables()`; without it any `{{placeholder}}` is an unknown variable. */
  variables?: ResolvedVariables;
  /** Whole-run limit, connection included (default 30 s). */
  timeoutMs?: number;
  /** Rows kept; more rows set `truncated` (default 100,000). */
  rowLimit?: number;
  /**
   * Bytes of rows kept, measured as `row-bytes.ts` estimates them (about their size as JSON); more
   * set `truncated` with `truncatedBy: 'bytes'` (default 32 MiB). `Infinity` for a run whose rows
   * are consumed as they come and never held (a chart's aggregation).
   */
  byteLimit?: number;
  /**
   * Bytes one batch of rows may hold while it is fetched (default: `byteLimit`, and never more than
   * the default byte limit when `byteLimit` is `Infinity`); a single row larger than this cuts the
   * run there (`truncatedBy: 'bytes'`).
   */
  batchByteLimit?: number;
  signal?: AbortSignal;
  /** Rows fetched per round trip when streaming (default 2,000); fewer when rows are large. */
  batchSize?: number;
}

/** Column types reported in one vocabulary for every source. */
export type ColumnType = 'string' | 'number' | 'boolean' | 'date' | 'json' | 'binary' | 'unknown';

export interface ColumnInfo {
  name: string;
  type: ColumnType;
  /** The source's own type name (`timestamptz`, `NEWDECIMAL`, …) when known. */
  sourceType?: string;
}

/** What cut a result: the row limit, the byte limit, or a source's cap on pages or requests. */
export type TruncationReason = 'rows' | 'bytes' | 'pages';

export interface RunMeta {
  columns: ColumnInfo[];
  rowCount: number;
  /** A limit cut the result: the rows are the first ones only. */
  truncated: boolean;
  /** Which limit cut it, when truncated. */
  truncatedBy?: TruncationReason;
  /** The row limit of the run, when truncated. */
  rowLimit?: number;
  /** The most pages a paginating source may request in one run, when that stopped it early (`truncatedBy: 'pages'`). */
  pageLimit?: number;
  /** The byte limit that cut the result, when `truncatedBy` is `bytes`. */
  byteLimit?: number;
  durationMs: number;
}

export type Row = Record<string, unknown>;

/**
 * What a run returns. SQL and MongoDB give an array of rows. An HTTP API gives its parsed JSON:
 * an array, or an object holding the arrays (fields are then addressed as `root.items[].x`).
 */
export type ResultData = unknown[] | Record<string, unknown>;

export interface RunResult {
  data: ResultData;
  meta: RunMeta;
}

/**
 * Rows in batches, for results too big to hold. Iterate once; breaking out of the loop (or
 * `close()`) stops the query on the source and releases the connection.
 */
export interface RowStream extends AsyncIterable<Row[]> {
  readonly columns: ColumnInfo[];
  /** Final once the iteration has finished. */
  meta(): RunMeta;
  close(): Promise<void>;
}

export interface SchemaColumn {
  name: string;
  type: string;
  nullable?: boolean;
}

export interface SchemaTable {
  /** Qualified (`schema.table`) outside the default schema. Collections for MongoDB. */
  name: string;
  columns: SchemaColumn[];
  rowCount?: number;
  /** A human name when `name` is an id (Google Analytics: "Account / Property"). */
  description?: string;
}

export interface SourceSchema {
  tables: SchemaTable[];
}

export interface SourceCapabilities {
  streaming: boolean;
  /** Which SQL dialect a chart can be pushed down into, if any. */
  pushdown: 'postgres' | 'mysql' | false;
  schema: boolean;
}

export interface TestResult {
  success: true;
  /** Table or collection names, when the source can list them cheaply. */
  tables?: string[];
}

export interface Source {
  readonly type: string;
  readonly capabilities: SourceCapabilities;
  /** Connects and checks the credentials; throws a typed error otherwise. */
  test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult>;
  schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema>;
  run(conn: SourceConnection, request: DataRequestSpec, options?: RunOptions): Promise<RunResult>;
  /** Present when `capabilities.streaming`; resolves once the first batch has arrived. */
  stream?(conn: SourceConnection, request: DataRequestSpec, options?: RunOptions): Promise<RowStream>;
  /**
   * Hosts a database source's driver will connect to itself (the registry checks them against the
   * address policy first). HTTP sources check every hop in their own client instead.
   */
  databaseHosts?(conn: SourceConnection): string[];
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** How long a connection test may take, whatever the source. */
export const CONNECTION_TEST_TIMEOUT_MS = 15_000;
export const DEFAULT_ROW_LIMIT = 100_000;
export const DEFAULT_BYTE_LIMIT = 32 * 1024 * 1024;
export const DEFAULT_BATCH_SIZE = 2_000;

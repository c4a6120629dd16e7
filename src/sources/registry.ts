import { UnsupportedSourceError } from './errors.js';
import type { PoolManager } from './pool-manager.js';
import type {
  DataRequestSpec,
  RowStream,
  RunOptions,
  RunResult,
  Source,
  SourceCapabilities,
  SourceConnection,
  SourceSchema,
  TestResult,
} from './types.js';
import { collectRows } from './row-stream.js';

/** A connection type or sub-type the registry serves (`GET /connection-providers`). */
export interface SourceProvider {
  type: string;
  subType: string;
  name: string;
  category: 'database' | 'api';
  /** Connection fields used when the stored value is null or undefined. */
  defaults?: Partial<SourceConnection>;
}

export interface ProviderInfo extends SourceProvider {
  capabilities: SourceCapabilities;
}

interface Registration {
  source: Source;
  provider: SourceProvider;
}

/**
 * Finds the source for a connection: by `subType` when it is registered (timescaledb, supabasedb,
 * rdsPostgres, rdsMysql, …), else by `type`. A sub-type reuses its family's source with its own
 * defaults (e.g. TLS required for managed databases).
 */
export class SourceRegistry {
  private readonly byKey = new Map<string, Registration>();
  private readonly closers: Array<() => Promise<void>> = [];

  constructor(readonly pools: PoolManager) {}

  /** Something else to close on shutdown (the outbound HTTP agent, …). */
  onClose(close: () => Promise<void>): this {
    this.closers.push(close);
    return this;
  }

  register(source: Source, providers: readonly SourceProvider[]): this {
    for (const provider of providers) {
      this.byKey.set(provider.subType, { source, provider });
      if (provider.subType === provider.type || !this.byKey.has(provider.type)) this.byKey.set(provider.type, { source, provider });
    }
    return this;
  }

  /** The source and the connection with its sub-type's defaults filled in. */
  resolve(conn: SourceConnection): { source: Source; connection: SourceConnection; provider: SourceProvider } {
    const bySubType = conn.subType ? this.byKey.get(conn.subType) : undefined;
    const entry = bySubType && bySubType.provider.type === conn.type ? bySubType : this.byKey.get(conn.type);
    if (!entry || entry.provider.type !== conn.type) throw new UnsupportedSourceError(conn.type);
    return { source: entry.source, connection: applyDefaults(conn, entry.provider.defaults), provider: entry.provider };
  }

  capabilities(conn: SourceConnection): SourceCapabilities {
    return this.resolve(conn).source.capabilities;
  }

  providers(): ProviderInfo[] {
    const seen = new Set<string>();
    const out: ProviderInfo[] = [];
    for (const { source, provider } of this.byKey.values()) {
      const key = `${provider.type}/${provider.subType}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...provider, capabilities: source.capabilities });
    }
    return out;
  }

  test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    const { source, connection } = this.resolve(conn);
    return source.test(connection, signal);
  }

  schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema> {
    const { source, connection } = this.resolve(conn);
    return source.schema(connection, signal);
  }

  run(conn: SourceConnection, request: DataRequestSpec, options?: RunOptions): Promise<RunResult> {
    const { source, connection } = this.resolve(conn);
    return source.run(connection, request, options);
  }

  /** Streams rows when the source can; otherwise runs and hands the rows out as one batch. */
  async stream(conn: SourceConnection, request: DataRequestSpec, options?: RunOptions): Promise<RowStream> {
    const { source, connection } = this.resolve(conn);
    if (source.stream) return source.stream(connection, request, options);
    const result = await source.run(connection, request, options);
    return singleBatch(result);
  }

  /** Closes the pools of a connection that was updated or deleted. */
  invalidate(connectionId: number | string): Promise<void> {
    return this.pools.invalidate(connectionId);
  }

  /** Shutdown: closes every pool and the HTTP agent. */
  async closeAll(): Promise<void> {
    await Promise.all([this.pools.closeAll(), ...this.closers.map((close) => close().catch(() => undefined))]);
  }
}

function applyDefaults(conn: SourceConnection, defaults: Partial<SourceConnection> | undefined): SourceConnection {
  if (!defaults) return conn;
  const out: Record<string, unknown> = { ...conn };
  for (const [key, value] of Object.entries(defaults)) {
    if (out[key] === null || out[key] === undefined) out[key] = value;
  }
  return out as unknown as SourceConnection;
}

function singleBatch(result: RunResult): RowStream {
  const rows = Array.isArray(result.data) ? (result.data as Record<string, unknown>[]) : [result.data];
  let done = false;
  return {
    columns: result.meta.columns,
    meta: () => result.meta,
    close: async () => undefined,
    async *[Symbol.asyncIterator]() {
      if (done) return;
      done = true;
      if (rows.length > 0) yield rows;
    },
  };
}

export { collectRows };

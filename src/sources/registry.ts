import { SourceTimeoutError, SourceUnreachableError, UnsupportedSourceError } from './errors.js';
import { loadSource } from './lazy-source.js';
import { OutboundPolicy } from './outbound/address-policy.js';
import type { SourceProvider } from './providers.js';
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
/** One finished source run (a stream once it has ended or been closed). */
export interface SourceRunEvent {
  type: string;
  connectionId: string | null;
  /** `ok`, or the typed error's code. */
  outcome: string;
  durationMs: number;
  rows: number;
  truncated: boolean;
}

export type SourceRunObserver = (event: SourceRunEvent) => void;

function outcomeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'ERROR';
}

export class SourceRegistry {
  private readonly byKey = new Map<string, Registration>();
  private readonly closers: Array<() => Promise<void>> = [];
  private readonly observers: SourceRunObserver[] = [];

  /** Hears of every run: metrics and the structured run log. */
  observe(observer: SourceRunObserver): this {
    this.observers.push(observer);
    return this;
  }

  private report(conn: SourceConnection, started: number, outcome: string, rows: number, truncated: boolean): void {
    const event: SourceRunEvent = {
      type: conn.type,
      connectionId: conn.id === null || conn.id === undefined ? null : String(conn.id),
      outcome,
      durationMs: Math.round(performance.now() - started),
      rows,
      truncated,
    };
    for (const observer of this.observers) {
      try {
        observer(event);
      } catch {
        // An observer never fails a run.
      }
    }
  }

  constructor(
    readonly pools: PoolManager,
    private readonly policy: OutboundPolicy = new OutboundPolicy(),
  ) {}

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

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    const { source, connection } = await this.checked(conn);
    try {
      return await source.test(connection, signal);
    } catch (error) {
      throw sameForClosedAndFiltered(error, connection);
    }
  }

  async schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema> {
    const { source, connection } = await this.checked(conn);
    return source.schema(connection, signal);
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options?: RunOptions): Promise<RunResult> {
    const { source, connection } = await this.checked(conn);
    const started = performance.now();
    try {
      const result = await source.run(connection, request, options);
      this.report(conn, started, 'ok', result.meta.rowCount, result.meta.truncated);
      return result;
    } catch (error) {
      this.report(conn, started, outcomeOf(error), 0, false);
      throw error;
    }
  }

  /** Streams rows when the source can; otherwise runs and hands the rows out as one batch. */
  async stream(conn: SourceConnection, request: DataRequestSpec, options?: RunOptions): Promise<RowStream> {
    const { source, connection } = await this.checked(conn);
    const started = performance.now();
    let stream: RowStream;
    try {
      stream = source.stream ? await source.stream(connection, request, options) : singleBatch(await source.run(connection, request, options));
    } catch (error) {
      this.report(conn, started, outcomeOf(error), 0, false);
      throw error;
    }
    return this.observed(conn, started, stream);
  }

  /** The stream, reporting once when it ends, fails or is closed. */
  private observed(conn: SourceConnection, started: number, stream: RowStream): RowStream {
    let rows = 0;
    let reported = false;
    const report = (outcome: string): void => {
      if (reported) return;
      reported = true;
      this.report(conn, started, outcome, rows, stream.meta().truncated);
    };
    return {
      get columns() {
        return stream.columns;
      },
      meta: () => stream.meta(),
      close: async () => {
        try {
          await stream.close();
        } finally {
          report('ok');
        }
      },
      async *[Symbol.asyncIterator]() {
        try {
          for await (const batch of stream) {
            rows += batch.length;
            yield batch;
          }
        } catch (error) {
          report(outcomeOf(error));
          throw error;
        } finally {
          // Ended, or the consumer stopped early (which closes the source).
          report('ok');
        }
      },
    };
  }

  /**
   * Resolves the source (importing its module on the first use of its type), and checks the hosts
   * a database driver would connect to (never cloud metadata).
   */
  private async checked(conn: SourceConnection): Promise<{ source: Source; connection: SourceConnection }> {
    const resolved = this.resolve(conn);
    const source = await loadSource(resolved.source);
    const hosts = source.databaseHosts?.(resolved.connection) ?? [];
    for (const host of hosts) await this.policy.checkDatabaseHost(host);
    return { source, connection: resolved.connection };
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

/**
 * A connection test must not tell a closed port from a filtered one or a host that does not
 * answer (that would make it a port scanner): every network-level failure reads the same.
 * Answers from a server (bad password, unknown database) keep their message.
 */
function sameForClosedAndFiltered(error: unknown, conn: SourceConnection): unknown {
  if (!(error instanceof SourceUnreachableError || error instanceof SourceTimeoutError)) return error;
  if (error instanceof SourceUnreachableError && /^(PostgreSQL|MySQL|MongoDB): /.test(error.message)) return error;
  const where = conn.host ? ` at ${conn.host}${conn.port ? `:${conn.port}` : ''}` : '';
  return new SourceUnreachableError(`Could not connect to the ${conn.type} source${where}: no answer, connection refused or timed out`);
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

import { SourceDriverUnavailableError } from './errors.js';
import type { DataRequestSpec, RunOptions, RunResult, Source, SourceCapabilities, SourceConnection, SourceSchema, TestResult } from './types.js';

/** What a source needs to be registered before its module (and driver) is loaded. */
export interface LazySourceSpec {
  type: string;
  /** Shown in the error when the driver cannot be loaded: "PostgreSQL", "MongoDB", … */
  name: string;
  capabilities: SourceCapabilities;
  /** The npm packages its driver comes from, named in that error. */
  packages: readonly string[];
  load: () => Promise<Source>;
}

/**
 * A source whose module, with its driver, is imported on first use and kept: a process that never
 * queries MongoDB never loads the MongoDB driver. Its type and capabilities are known up front,
 * so the registry lists and routes by them without loading anything.
 */
export class LazySource implements Source {
  readonly type: string;
  readonly capabilities: SourceCapabilities;
  private loaded: Source | undefined;
  private loading: Promise<Source> | undefined;

  constructor(private readonly spec: LazySourceSpec) {
    this.type = spec.type;
    this.capabilities = spec.capabilities;
  }

  /** The real source, imported once; a failed import is tried again on the next use. */
  source(): Promise<Source> {
    if (this.loaded) return Promise.resolve(this.loaded);
    this.loading ??= this.spec.load().then(
      (source) => (this.loaded = source),
      (error: unknown) => {
        this.loading = undefined;
        throw new SourceDriverUnavailableError(this.spec.name, this.spec.packages, error);
      },
    );
    return this.loading;
  }

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    return (await this.source()).test(conn, signal);
  }

  async schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema> {
    return (await this.source()).schema(conn, signal);
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options?: RunOptions): Promise<RunResult> {
    return (await this.source()).run(conn, request, options);
  }
}

/** The source itself, importing it first when it is registered lazily. */
export function loadSource(source: Source): Promise<Source> {
  return source instanceof LazySource ? source.source() : Promise.resolve(source);
}

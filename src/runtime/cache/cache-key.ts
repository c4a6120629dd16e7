import { createHash } from 'node:crypto';
import { stableStringify } from '../stable-json.js';

type Version = string | number | Date | null | undefined;

export interface DatasetCacheKeyInput {
  datasetId: number | string;
  /** Changes whenever the dataset (joins, transforms, main request, …) changes: updatedAt or a hash. */
  datasetVersion: Version;
  /** Every data request the run uses, with its own version and its connection's. */
  dataRequests: ReadonlyArray<{ id: number | string; version: Version; connectionVersion?: Version }>;
  /** The bound variable values (`variableValues(resolveVariables(…))`). */
  variables?: Readonly<Record<string, unknown>>;
  /** Runtime filters that change the rows. */
  filters?: unknown;
  /** Anything else that changes the answer (viewer scope, time zone, row limit, …). */
  extra?: unknown;
}

/** SHA-256 (hex) of the stable JSON of `value`. */
export function stableHash(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex');
}

/** `<namespace>:<hash of parts>`: a key built from everything that changes the answer. */
export function cacheKey(namespace: string, parts: unknown): string {
  return `${namespace}:${stableHash(parts)}`;
}

/**
 * The key of a dataset run. Equal inputs give equal keys whatever the order of object keys or of
 * the data requests; any change of a version, a variable value or a filter gives another key, so
 * an edited dataset is never answered from an old entry (no explicit invalidation needed).
 */
export function datasetCacheKey(input: DatasetCacheKeyInput): string {
  const requests = [...input.dataRequests]
    .map((request) => ({ id: String(request.id), version: request.version ?? null, connectionVersion: request.connectionVersion ?? null }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return `dataset:${String(input.datasetId)}:${stableHash({
    datasetVersion: input.datasetVersion ?? null,
    requests,
    variables: input.variables ?? {},
    filters: input.filters ?? null,
    extra: input.extra ?? null,
  })}`;
}

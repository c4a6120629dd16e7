import { LRUCache } from 'lru-cache';
import { Type, type Static } from 'typebox';
import { Ref } from '../../platform/http-schemas.js';
import { lazySerializer } from '../../platform/schema-compilers.js';
import { Chart, CHART_COMPONENTS } from './charts-schemas.js';
import { SharePolicy, SHARING_COMPONENTS } from './sharing-schemas.js';
import { DashboardFilter, DASHBOARD_FILTER_COMPONENTS } from './dashboard-filters-schemas.js';
import type { ChartsRepository } from './charts-repository.js';
import type { DashboardFiltersRepository } from './dashboard-filters-repository.js';
import type { SharingRepository } from './sharing-repository.js';
import { ProjectHead } from './projects-schemas.js';

declare const serialized: unique symbol;
/** A response body already serialized as JSON: the route sends it as it is. */
export type JsonBody = string & { readonly [serialized]: true };

/** A dashboard's own fields as answered, `nextUpdateAt` included. */
export type DashboardHead = Static<typeof ProjectHead>;

/** A dashboard's charts, filters and share policies, serialized, as of one view version. */
interface SerializedParts {
  version: number | undefined;
  charts: string;
  filters: string;
  policies?: string;
}

export interface DashboardViewsDeps {
  charts: ChartsRepository;
  filters: DashboardFiltersRepository;
  sharing: SharingRepository;
  /** Bound of the kept serializations, in characters (32 Mi by default). */
  maxChars?: number;
}

// Serialized by Fastify's own compiler from the response schema's parts, so the bytes are those
// the whole `Project` schema gives (test/http/dashboard-views.int.test.ts holds them equal).
const serializeHead = lazySerializer<DashboardHead>(ProjectHead);
const serializeCharts = lazySerializer<unknown[]>(Type.Array(Ref(Chart)), CHART_COMPONENTS);
const serializeFilters = lazySerializer<unknown[]>(Type.Array(Ref(DashboardFilter)), DASHBOARD_FILTER_COMPONENTS);
const serializePolicies = lazySerializer<unknown[]>(Type.Array(Ref(SharePolicy)), SHARING_COMPONENTS);

/**
 * The body of `GET /project/{id}` and of the dashboard writes: the dashboard's own fields, read
 * for each request, with its charts, filters and share policies serialized once per view version
 * and kept. Triggers move a dashboard's view version (`dashboard_view_versions`) on every change
 * to its charts, their dataset configs, its own share policies (migration 0013) and its filters
 * (0015), so a kept
 * serialization is used only while nothing it was made from has changed, whichever process or
 * path changed it (decision 0022).
 */
export class DashboardViews {
  readonly #kept: LRUCache<number, SerializedParts>;

  constructor(private readonly deps: DashboardViewsDeps) {
    this.#kept = new LRUCache({
      maxSize: deps.maxChars ?? 32 * 1024 * 1024,
      sizeCalculation: (parts) => parts.charts.length + parts.filters.length + (parts.policies?.length ?? 0) + 64,
    });
  }

  /**
   * `head` with the dashboard's charts, its filters and, `withPolicies`, its share policies, as of `version`:
   * the view version read with `head`, or undefined to read them without keeping them.
   *
   * Charts, filters and policies are read after the version was, never before: what is kept under a
   * version is never older than it. A write that lands in between is newer than the label, and
   * its own bump makes the next request read again.
   */
  async body(head: DashboardHead, version: number | undefined, withPolicies: boolean): Promise<JsonBody> {
    let parts = version === undefined ? undefined : this.#kept.get(head.id);
    let changed = false;
    if (parts === undefined || parts.version !== version) {
      parts = {
        version,
        charts: serializeCharts(await this.deps.charts.listByProject(head.id)),
        filters: serializeFilters(await this.deps.filters.listByProject(head.id)),
      };
      changed = true;
    }
    if (withPolicies && parts.policies === undefined) {
      parts.policies = serializePolicies(await this.deps.sharing.list({ teamId: head.team_id, type: 'Project', id: head.id }));
      changed = true;
    }
    if (changed && version !== undefined) this.#kept.set(head.id, parts);
    const fields = serializeHead(head);
    // The head is an object with properties; the response schema puts Charts, DashboardFilters and SharePolicies last.
    const policies = withPolicies ? `,"SharePolicies":${parts.policies}` : '';
    return `${fields.slice(0, -1)},"Charts":${parts.charts},"DashboardFilters":${parts.filters}${policies}}` as JsonBody;
  }
}

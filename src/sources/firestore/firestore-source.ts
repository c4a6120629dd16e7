import { InvalidQueryError } from '../errors.js';
import { GoogleTokens, parseServiceAccount, withGoogleToken, type GoogleCredential } from '../google/google-auth.js';
import type { OutboundClient } from '../outbound/http-client.js';
import { asSourceError, providerError, sendJson, type ProviderLabel } from '../remote/json-call.js';
import { RunControl, type RunLimits } from '../run-control.js';
import {
  CONNECTION_TEST_TIMEOUT_MS,
  DEFAULT_ROW_LIMIT,
  type DataRequestSpec,
  type Row,
  type RunOptions,
  type RunResult,
  type SchemaTable,
  type Source,
  type SourceCapabilities,
  type SourceConnection,
  type SourceSchema,
  type TestResult,
} from '../types.js';
import { inferColumns } from '../values.js';
import { buildWhere, compileCollectionPath, configLimit, configText, fieldPathOf } from './firestore-query.js';
import { documentPath, documentRow, rawValueAt, type FirestoreDocument } from './firestore-values.js';
import { SOURCE_CAPABILITIES } from '../capabilities.js';

export interface FirestoreSourceOptions {
  /** PLOTLINE_FIRESTORE_URL (https://firestore.googleapis.com). */
  baseUrl: string;
  /** Documents per runQuery request (default 1,000). */
  pageSize?: number;
  /** Documents sampled per collection for the schema (default 20). */
  schemaSampleSize?: number;
  /** Collections described at most (default 100). */
  schemaMaxCollections?: number;
}

const SCOPES = ['https://www.googleapis.com/auth/datastore'];
const LABEL: ProviderLabel = { name: 'Firestore', credential: 'service account' };
const SCHEMA_TIMEOUT_MS = 60_000;

interface Target {
  conn: SourceConnection;
  credential: GoogleCredential;
  /** `projects/{p}/databases/{d}/documents` */
  root: string;
}

/**
 * Cloud Firestore over its REST API (runQuery, listCollectionIds) with a service account. See
 * docs/decisions/0011-provider-sources-over-rest.md for why REST and not the SDK.
 */
export class FirestoreSource implements Source {
  readonly type = 'firestore';
  readonly capabilities: SourceCapabilities = SOURCE_CAPABILITIES.firestore;
  private readonly options: Required<FirestoreSourceOptions>;

  constructor(
    private readonly client: OutboundClient,
    private readonly tokens: GoogleTokens,
    options: FirestoreSourceOptions,
  ) {
    this.options = {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      pageSize: options.pageSize ?? 1_000,
      schemaSampleSize: options.schemaSampleSize ?? 20,
      schemaMaxCollections: options.schemaMaxCollections ?? 100,
    };
  }

  async test(conn: SourceConnection, signal?: AbortSignal): Promise<TestResult> {
    return this.withControl(conn, { timeoutMs: CONNECTION_TEST_TIMEOUT_MS, signal }, async (target, control) => {
      const tables = await this.listCollections(target, control, target.root);
      return { success: true, tables };
    });
  }

  async schema(conn: SourceConnection, signal?: AbortSignal): Promise<SourceSchema> {
    return this.withControl(conn, { timeoutMs: SCHEMA_TIMEOUT_MS, signal }, async (target, control) => {
      const tables: SchemaTable[] = [];
      const names = (await this.listCollections(target, control, target.root)).slice(0, this.options.schemaMaxCollections);
      for (const name of names) {
        const sample = await this.query(target, control, { parent: target.root, collectionId: name, limit: this.options.schemaSampleSize });
        tables.push({ name, columns: columnsOf(sample.map(documentRow)) });
        // Sub-collections, as found under the first sampled document.
        const first = sample[0];
        if (!first) continue;
        for (const sub of await this.listCollections(target, control, first.name)) {
          const subSample = await this.query(target, control, { parent: first.name, collectionId: sub, limit: this.options.schemaSampleSize });
          tables.push({ name: `${name}/*/${sub}`, columns: columnsOf(subSample.map(documentRow)) });
        }
      }
      return { tables };
    });
  }

  async run(conn: SourceConnection, request: DataRequestSpec, options: RunOptions = {}): Promise<RunResult> {
    const variables = options.variables;
    const configuration = request.configuration ?? {};
    const segments = compileCollectionPath(request.query?.trim() ? request.query : (request.route ?? ''), variables, request.query?.trim() ? 'query' : 'route');
    const collectionId = segments[segments.length - 1]!;
    const main = segments.join('/');
    const orderBy = configText(configuration['orderBy'], variables);
    const direction = String(configText(configuration['orderByDirection'], variables) ?? 'desc').toLowerCase();
    if (direction !== 'asc' && direction !== 'desc') throw new InvalidQueryError('orderByDirection must be asc or desc', 'configuration.orderByDirection');
    const limit = configLimit(configuration['limit'], variables, 'limit');
    const sub = configText(configuration['selectedSubCollection'], variables);
    if (sub !== undefined && sub.includes('/')) throw new InvalidQueryError('selectedSubCollection is one collection id, without "/"', 'configuration.selectedSubCollection');
    const populate = configuration['populateAttributes'] === true || configuration['populateAttributes'] === 'true';
    const subWhere = sub ? buildWhere(request.conditions, [sub], false, variables) : undefined;
    const rowLimit = options.rowLimit ?? DEFAULT_ROW_LIMIT;

    return this.withControl(conn, options, async (target, control) => {
      const parent = segments.length > 1 ? `${target.root}/${segments.slice(0, -1).map(encodeSegment).join('/')}` : target.root;
      const where = buildWhere(request.conditions, [main, collectionId], true, variables, (id) => `${target.root}/${main}/${id}`);
      const wanted = Math.min(limit ?? Infinity, rowLimit + 1);
      const docs = await this.query(target, control, {
        parent,
        collectionId,
        where,
        orderBy: orderBy ? { field: fieldPathOf(orderBy, 'configuration.orderBy'), direction: direction === 'asc' ? 'ASCENDING' : 'DESCENDING' } : undefined,
        limit: wanted,
      });
      let truncated = limit === undefined || limit > rowLimit ? docs.length > rowLimit : false;
      const mainDocs = docs.slice(0, rowLimit);
      let rows: Row[] = mainDocs.map(documentRow);

      if (sub) {
        // One collection-group query for the sub-collection, kept to the parents found above.
        const parents = new Set(mainDocs.map((d) => d.name));
        const group = await this.query(target, control, { parent: target.root, collectionId: sub, allDescendants: true, where: subWhere, limit: rowLimit + 1 }, (d) =>
          parents.has(parentOf(d.name)),
        );
        if (group.length > rowLimit) truncated = true;
        if (populate) {
          const byParent = new Map<string, Row[]>();
          for (const doc of group.slice(0, rowLimit)) {
            const list = byParent.get(parentOf(doc.name)) ?? [];
            list.push(documentRow(doc));
            byParent.set(parentOf(doc.name), list);
          }
          rows = mainDocs.map((doc, i) => ({ ...rows[i]!, [sub]: byParent.get(doc.name) ?? [] }));
        } else {
          rows = group.slice(0, rowLimit).map((doc) => ({ ...documentRow(doc), _parent: documentPath(parentOf(doc.name)) }));
        }
      }
      return { data: rows, meta: { columns: inferColumns(rows), rowCount: rows.length, ...control.truncation(truncated), durationMs: Math.round(control.elapsedMs()) } };
    });
  }

  private async withControl<T>(conn: SourceConnection, options: RunLimits, work: (target: Target, control: RunControl) => Promise<T>): Promise<T> {
    const account = parseServiceAccount(conn.firebaseServiceAccount);
    const projectId = account.project_id;
    if (!projectId) throw new InvalidQueryError('The service account has no project_id', 'firebaseServiceAccount.project_id');
    const database = conn.dbName?.trim() || '(default)';
    const target: Target = {
      conn,
      credential: { kind: 'service_account', account },
      root: `projects/${encodeSegment(projectId)}/databases/${database === '(default)' ? database : encodeSegment(database)}/documents`,
    };
    return RunControl.within(options, (control) => work(target, control), (error) => asSourceError(error, LABEL, conn));
  }

  /** One authorized POST to `{name}:{method}`. */
  private async call(target: Target, control: RunControl, name: string, method: string, body: unknown): Promise<unknown> {
    const url = `${this.options.baseUrl}/v1/${name}:${method}`;
    const answer = await withGoogleToken(this.tokens, control, target.credential, SCOPES, target.conn, (token) =>
      sendJson(this.client, control, { url, method: 'POST', headers: { authorization: `Bearer ${token}` }, body }),
    );
    if (answer.status >= 300) throw providerError(LABEL, answer, target.conn);
    return answer.json;
  }

  private async listCollections(target: Target, control: RunControl, parent: string): Promise<string[]> {
    const out: string[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < 1000; page += 1) {
      const answer = (await this.call(target, control, parent, 'listCollectionIds', { pageSize: 300, ...(pageToken ? { pageToken } : {}) })) as {
        collectionIds?: string[];
        nextPageToken?: string;
      } | null;
      out.push(...(answer?.collectionIds ?? []));
      pageToken = answer?.nextPageToken || undefined;
      if (!pageToken) break;
    }
    return out.sort();
  }

  /**
   * runQuery in pages of `pageSize`, each page starting after the previous page's last document
   * (a cursor on the ordering plus the document name), until `limit` documents are kept.
   */
  private async query(
    target: Target,
    control: RunControl,
    spec: {
      parent: string;
      collectionId: string;
      allDescendants?: boolean;
      where?: Record<string, unknown> | undefined;
      orderBy?: { field: string; direction: 'ASCENDING' | 'DESCENDING' } | undefined;
      limit: number;
    },
    keep: (doc: FirestoreDocument) => boolean = () => true,
  ): Promise<FirestoreDocument[]> {
    const orderBy = spec.orderBy
      ? [
          { field: { fieldPath: spec.orderBy.field }, direction: spec.orderBy.direction },
          ...(spec.orderBy.field === '__name__' ? [] : [{ field: { fieldPath: '__name__' }, direction: spec.orderBy.direction }]),
        ]
      : [{ field: { fieldPath: '__name__' }, direction: 'ASCENDING' }];
    const out: FirestoreDocument[] = [];
    let after: FirestoreDocument | undefined;
    while (out.length < spec.limit) {
      const pageSize = Math.min(this.options.pageSize, spec.limit - out.length);
      const structuredQuery: Record<string, unknown> = {
        from: [{ collectionId: spec.collectionId, ...(spec.allDescendants ? { allDescendants: true } : {}) }],
        orderBy,
        limit: pageSize,
      };
      if (spec.where) structuredQuery['where'] = spec.where;
      if (after) {
        const last = after;
        structuredQuery['startAt'] = {
          before: false,
          values: orderBy.map((o) => (o.field.fieldPath === '__name__' ? { referenceValue: last.name } : rawValueAt(last, o.field.fieldPath))),
        };
      }
      const answer = await this.call(target, control, spec.parent, 'runQuery', { structuredQuery });
      if (!Array.isArray(answer)) throw new InvalidQueryError('Firestore answered runQuery with something other than a list of results', 'query');
      const page = answer.map((item) => (item as { document?: FirestoreDocument }).document).filter((d): d is FirestoreDocument => Boolean(d?.name));
      for (const doc of page) if (keep(doc) && out.length < spec.limit) out.push(doc);
      if (page.length < pageSize || control.stopPaging()) break;
      after = page[page.length - 1];
    }
    return out;
  }
}

function parentOf(name: string): string {
  const parts = name.split('/');
  return parts.slice(0, -2).join('/');
}

function encodeSegment(segment: string): string {
  return encodeURIComponent(segment);
}

function columnsOf(rows: Row[]): { name: string; type: string }[] {
  return inferColumns(rows).map((c) => ({ name: c.name, type: c.type }));
}

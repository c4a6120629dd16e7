import { BadRequestError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { ConnectionSummary, ConnectionsService } from './connections-service.js';
import type { Actor } from '../../platform/actor.js';
import { can, ownsAny, projectScope, type Action, type Membership } from '../../platform/authorization.js';
import type { Db } from '../../store/index.js';
import type { BindingType, DataRequestFields, DataRequestRecord, DataRequestsRepository, VariableBinding } from './data-requests-repository.js';
import { bindingDefault, bindingName, dataRequestView, normalizeHeaders } from './data-requests-views.js';
import type { Static } from 'typebox';
import type { DatasetFields, DatasetRecord, DatasetsRepository } from './datasets-repository.js';
import type { BindingBody, DataRequestBody, DataRequestView, DatasetView, Join, QuickCreateDataset, UpdateDataset } from './datasets-schemas.js';


/** Bodies as their schemas describe them; `null` clears a field. */
export type DatasetInput = Static<typeof UpdateDataset>;
export type BindingInput = Static<typeof BindingBody>;
export type DataRequestInput = Static<typeof DataRequestBody>;
export type QuickCreateInput = Static<typeof QuickCreateDataset>;

/** Fields of a dataset body that map straight onto columns. */
const DATASET_FIELDS = [
  'name',
  'legend',
  'connection_id',
  'type',
  'query',
  'datasetColor',
  'draft',
  'xAxis',
  'xAxisOperation',
  'yAxis',
  'yAxisOperation',
  'dateField',
  'dateFormat',
  'conditions',
  'fieldsSchema',
  'excludedFields',
  'configuration',
  'joinSettings',
  'main_dr_id',
] as const;

/** Fields of a data request body that map straight onto columns (`headers` is normalised first). */
const DATA_REQUEST_FIELDS = [
  'connection_id',
  'method',
  'route',
  'body',
  'useGlobalHeaders',
  'query',
  'pagination',
  'items',
  'itemsLimit',
  'offset',
  'paginationField',
  'template',
  'conditions',
  'configuration',
  'variables',
  'transform',
] as const satisfies readonly (keyof DataRequestInput & keyof DataRequestFields)[];

export interface DatasetsDeps {
  db: Db;
  datasets: DatasetsRepository;
  requests: DataRequestsRepository;
  connections: ConnectionsService;
  access: AccessService;
}

/**
 * Datasets: reusable named queries of a team, attached to projects. A project role sees and
 * changes only datasets attached to its projects; another team's dataset is a 404.
 */
export class DatasetsService {
  constructor(private readonly deps: DatasetsDeps) {}

  /** Loads a dataset the actor may act on, or throws 403/404. Other modules use this too. */
  async load(actor: Actor, teamId: number, datasetId: number, action: Action): Promise<{ membership: Membership; dataset: DatasetRecord }> {
    const membership = await this.deps.access.require(actor, teamId, action);
    const dataset = await this.deps.datasets.find(teamId, datasetId);
    if (!dataset || !ownsAny(membership, dataset.project_ids)) throw new NotFoundError('Dataset');
    return { membership, dataset };
  }

  /** Datasets a chart draws, read in one go; access was decided on the chart. Missing ones are left out. */
  async loadForChart(teamId: number, ids: readonly number[]): Promise<Map<number, DatasetRecord>> {
    const records = await this.deps.datasets.findMany(teamId, [...new Set(ids)]);
    return new Map(records.map((record) => [record.id, record]));
  }

  async list(actor: Actor, teamId: number): Promise<DatasetView[]> {
    const membership = await this.deps.access.require(actor, teamId, 'dataset:read');
    const datasets = await this.deps.datasets.list(teamId, projectScope(membership));
    return this.views(membership, datasets);
  }

  async get(actor: Actor, teamId: number, datasetId: number): Promise<DatasetView> {
    const { membership, dataset } = await this.load(actor, teamId, datasetId, 'dataset:read');
    return (await this.views(membership, [dataset]))[0]!;
  }

  async create(actor: Actor, teamId: number, input: DatasetInput): Promise<DatasetView> {
    const membership = await this.deps.access.require(actor, teamId, 'dataset:write');
    const fields = await this.checkFields(membership, input, undefined);
    const dataset = await this.deps.datasets.create(teamId, fields);
    return this.get(actor, teamId, dataset.id);
  }

  async update(actor: Actor, teamId: number, datasetId: number, input: DatasetInput): Promise<DatasetView> {
    const { membership, dataset } = await this.load(actor, teamId, datasetId, 'dataset:write');
    const fields = await this.checkFields(membership, input, dataset);
    await this.deps.datasets.update(teamId, datasetId, fields);
    return this.get(actor, teamId, datasetId);
  }

  async delete(actor: Actor, teamId: number, datasetId: number): Promise<void> {
    await this.load(actor, teamId, datasetId, 'dataset:write');
    await this.deps.db.transaction().execute(async (trx) => {
      const requests = await this.deps.requests.listForDatasets([datasetId], trx);
      await this.deps.requests.deleteBindingsOf('DataRequest', requests.map((r) => String(r.id)), trx);
      await this.deps.requests.deleteBindingsOf('Dataset', [String(datasetId)], trx);
      await this.deps.datasets.delete(teamId, datasetId, trx);
    });
  }

  /**
   * Dataset, data requests, index-based joins and variable bindings in one transaction:
   * any invalid part leaves nothing behind.
   */
  async quickCreate(actor: Actor, teamId: number, input: QuickCreateInput): Promise<DatasetView> {
    const membership = await this.deps.access.require(actor, teamId, 'dataset:write');
    const requests = input.dataRequests ?? [];
    const mainIndex = input.main_dr_index ?? 0;
    if (requests.length > 0 && mainIndex >= requests.length) {
      throw ValidationError.field('body.main_dr_index', `must be an index into dataRequests (0…${requests.length - 1})`);
    }
    const joins = input.joinSettings?.joins ?? [];
    joins.forEach((join, i) => {
      for (const key of ['dr_id', 'join_id'] as const) {
        if (join[key] >= requests.length) throw ValidationError.field(`body.joinSettings.joins.${i}.${key}`, `must be an index into dataRequests (0…${requests.length - 1})`);
      }
    });
    const { joinSettings: _joins, main_dr_id: _main, ...rest } = input;
    const fields = await this.checkFields(membership, {
      ...rest,
      xAxis: input.xAxis ?? input.dimension ?? null,
      yAxis: input.yAxis ?? input.metric ?? null,
      yAxisOperation: input.yAxisOperation ?? input.metricOperation ?? null,
    }, undefined);
    const checkedRequests = await Promise.all(
      requests.map(async (r, i) => ({
        fields: await this.checkRequestFields(membership, r, `body.dataRequests.${i}`),
        bindings: (r.variableBindings ?? []).map((b, j) => checkBinding(b, `body.dataRequests.${i}.variableBindings.${j}`)),
      })),
    );
    const datasetBindings = (input.variableBindings ?? []).map((b, j) => checkBinding(b, `body.variableBindings.${j}`));

    const id = await this.deps.db.transaction().execute(async (trx) => {
      const dataset = await this.deps.datasets.create(teamId, fields, trx);
      const created: DataRequestRecord[] = [];
      for (const request of checkedRequests) {
        const record = await this.deps.requests.create(dataset.id, request.fields, trx);
        for (const binding of request.bindings) await this.deps.requests.createBinding(teamId, 'DataRequest', String(record.id), binding, trx);
        created.push(record);
      }
      for (const binding of datasetBindings) await this.deps.requests.createBinding(teamId, 'Dataset', String(dataset.id), binding, trx);
      const realJoins: Join[] = joins.map((j) => ({
        ...j,
        dr_id: created[j.dr_id]!.id,
        join_id: created[j.join_id]!.id,
      }));
      await this.deps.datasets.update(
        teamId,
        dataset.id,
        {
          main_dr_id: created[mainIndex]?.id ?? null,
          joinSettings: { ...(input.joinSettings ?? {}), joins: realJoins },
          ...(fields.connection_id === undefined && checkedRequests[mainIndex]?.fields.connection_id
            ? { connection_id: checkedRequests[mainIndex]!.fields.connection_id ?? null }
            : {}),
        },
        trx,
      );
      return dataset.id;
    });
    return this.get(actor, teamId, id);
  }

  /** Validates foreign ids against the team and the caller's projects; legacy `legend` fills `name`. */
  private async checkFields(membership: Membership, input: DatasetInput, existing: DatasetRecord | undefined): Promise<Partial<DatasetFields>> {
    const fields: Partial<DatasetFields> = {};
    for (const key of DATASET_FIELDS) {
      if (input[key] !== undefined) (fields as Record<string, unknown>)[key] = input[key];
    }
    if (existing === undefined) {
      if ((fields.name === undefined || fields.name === null) && fields.legend) fields.name = fields.legend;
      if (fields.legend === undefined && fields.name) fields.legend = fields.name;
    } else if (input.name === undefined && input.legend !== undefined && input.legend !== null && existing.name === existing.legend) {
      fields.name = input.legend;
    }
    if (fields.connection_id !== undefined && fields.connection_id !== null) {
      if (!(await this.deps.connections.usableBy(membership, fields.connection_id))) {
        throw ValidationError.field('body.connection_id', 'is not a connection of this team that you may use');
      }
    }
    if (fields.main_dr_id !== undefined && fields.main_dr_id !== null) {
      if (!existing || !(await this.deps.requests.find(existing.id, fields.main_dr_id))) {
        throw ValidationError.field('body.main_dr_id', 'is not a data request of this dataset');
      }
    }
    if (input.joinSettings?.joins && existing) {
      const ids = new Set((await this.deps.requests.listForDatasets([existing.id])).map((r) => r.id));
      input.joinSettings.joins.forEach((join, i) => {
        for (const key of ['dr_id', 'join_id'] as const) {
          if (!ids.has(join[key])) throw ValidationError.field(`body.joinSettings.joins.${i}.${key}`, 'is not a data request of this dataset');
        }
      });
    }
    if (fields.joinSettings) fields.joinSettings = { ...fields.joinSettings, joins: fields.joinSettings.joins ?? [] };

    const scope = projectScope(membership);
    if (input.project_ids !== undefined) {
      const ids = [...new Set(input.project_ids.map(Number))];
      const known = await this.deps.datasets.projectIdsOfTeam(membership.teamId);
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) throw ValidationError.field('body.project_ids', `contains ids that are not projects of this team: ${unknown.join(', ')}`);
      if (scope !== undefined) {
        const outside = ids.filter((id) => !scope.includes(id));
        if (outside.length > 0 || ids.length === 0) {
          throw ValidationError.field('body.project_ids', 'must list only (and at least one of) your own projects');
        }
      }
      fields.project_ids = ids;
    } else if (existing === undefined && scope !== undefined) {
      // A project role's new dataset belongs to its projects, so that it can see it afterwards.
      fields.project_ids = [...scope];
    }
    return fields;
  }

  /** Checks a data request body: a connection of this team the caller may use, headers normalised. */
  async checkRequestFields(membership: Membership, input: DataRequestInput, field: string): Promise<Partial<DataRequestFields>> {
    const fields: Partial<DataRequestFields> = {};
    // Only the columns a body may write: a key the schema let through for another reason never reaches the store.
    for (const key of DATA_REQUEST_FIELDS) if (input[key] !== undefined) Object.assign(fields, { [key]: input[key] });
    if (input.headers !== undefined) fields.headers = normalizeHeaders(input.headers ?? [], `${field}.headers`);
    if (fields.connection_id !== undefined && fields.connection_id !== null) {
      if (!(await this.deps.connections.usableBy(membership, fields.connection_id))) {
        throw ValidationError.field(`${field}.connection_id`, 'is not a connection of this team that you may use');
      }
    }
    if (typeof fields.body === 'string' && fields.body.trim() !== '') {
      try {
        JSON.parse(fields.body);
      } catch {
        throw ValidationError.field(`${field}.body`, 'must be a JSON document encoded as a string');
      }
    }
    return fields;
  }

  /** Full views: data requests (with connection summaries and bindings) and dataset-level bindings. */
  async views(membership: Membership, datasets: DatasetRecord[]): Promise<DatasetView[]> {
    const ids = datasets.map((d) => d.id);
    const requests = await this.deps.requests.listForDatasets(ids);
    const [connections, bindings] = await Promise.all([
      this.deps.connections.summaries(membership.teamId, connectionIdsOf(requests)),
      this.deps.requests.bindingsFor(
        ids,
        requests.map((r) => r.id),
      ),
    ]);
    return datasets.map((dataset) => this.viewOf(membership, dataset, { requests: requests.filter((r) => r.dataset_id === dataset.id), bindings, connections }));
  }

  /** The view of a dataset from parts already read (a prepared run holds them): no store read. */
  viewOf(membership: Membership, dataset: DatasetRecord, parts: { requests: readonly DataRequestRecord[]; bindings: readonly VariableBinding[]; connections: Iterable<ConnectionSummary> }): DatasetView {
    const { version: _version, ...fields } = dataset;
    const connections = [...parts.connections];
    const showHost = can(membership, 'connection:readSecrets');
    return {
      ...fields,
      DataRequests: parts.requests.map((r) =>
        dataRequestView(
          r,
          connections.find((c) => c.id === r.connection_id),
          parts.bindings.filter((b) => b.entity_type === 'DataRequest' && b.entity_id === String(r.id)),
          showHost,
        ),
      ),
      VariableBindings: parts.bindings.filter((b) => b.entity_type === 'Dataset' && b.entity_id === String(dataset.id)),
    };
  }

  async requestViews(membership: Membership, requests: DataRequestRecord[]): Promise<DataRequestView[]> {
    const [connections, bindings] = await Promise.all([
      this.deps.connections.summaries(membership.teamId, connectionIdsOf(requests)),
      this.deps.requests.bindingsOf('DataRequest', requests.map((r) => String(r.id))),
    ]);
    const showHost = can(membership, 'connection:readSecrets');
    return requests.map((r) =>
      dataRequestView(
        r,
        connections.find((c) => c.id === r.connection_id),
        bindings.filter((b) => b.entity_id === String(r.id)),
        showHost,
      ),
    );
  }
}

function connectionIdsOf(requests: readonly DataRequestRecord[]): number[] {
  return [...new Set(requests.map((r) => r.connection_id).filter((id): id is number => id !== null))];
}

export function checkBinding(input: BindingInput, field: string): { name: string; type: BindingType; default_value: string | null; required: boolean } {
  const type = input.type ?? 'string';
  const name = bindingName(input.name, `${field}.name`);
  const default_value = bindingDefault(type, input.default_value, `${field}.default_value`);
  return { name, type, default_value, required: input.required ?? false };
}

export function assertUniqueBindingName(existing: VariableBinding[], name: string, exceptId?: number): void {
  if (existing.some((b) => b.name === name && b.id !== exceptId)) {
    throw new BadRequestError(`A variable named "${name}" is already bound on this data request`, 'DUPLICATE_VARIABLE');
  }
}

import { NotFoundError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import type { Membership } from '../../platform/authorization.js';
import type { Db } from '../../store/index.js';
import { assertUniqueBindingName, checkBinding, type BindingInput, type DataRequestInput, type DatasetsService } from './datasets-service.js';
import type { DataRequestsRepository } from './data-requests-repository.js';
import type { DatasetsRepository } from './datasets-repository.js';
import { mergeMaskedHeaders } from './data-requests-views.js';
import type { DataRequestView } from './datasets-schemas.js';

export interface DataRequestsDeps {
  db: Db;
  datasets: DatasetsService;
  datasetVersions: DatasetsRepository;
  requests: DataRequestsRepository;
}

/** Data requests of a dataset and their variable bindings. Every change bumps the dataset's version. */
export class DataRequestsService {
  constructor(private readonly deps: DataRequestsDeps) {}

  async list(actor: Actor, teamId: number, datasetId: number): Promise<DataRequestView[]> {
    const { membership } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:read');
    return this.deps.datasets.requestViews(membership, await this.deps.requests.listForDatasets([datasetId]));
  }

  async get(actor: Actor, teamId: number, datasetId: number, id: number): Promise<DataRequestView> {
    const { membership } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:read');
    return this.view(membership, datasetId, id);
  }

  async create(actor: Actor, teamId: number, datasetId: number, input: DataRequestInput): Promise<DataRequestView> {
    const { membership, dataset } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:write');
    const fields = await this.deps.datasets.checkRequestFields(membership, input, 'body');
    const record = await this.deps.db.transaction().execute(async (trx) => {
      const created = await this.deps.requests.create(datasetId, fields, trx);
      // The first request of a dataset becomes its main request.
      if (dataset.main_dr_id === null) await this.deps.datasetVersions.update(teamId, datasetId, { main_dr_id: created.id }, trx);
      else await this.deps.datasetVersions.bumpVersion(datasetId, trx);
      return created;
    });
    return this.view(membership, datasetId, record.id);
  }

  async update(actor: Actor, teamId: number, datasetId: number, id: number, input: DataRequestInput): Promise<DataRequestView> {
    const { membership } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:write');
    const existing = await this.deps.requests.find(datasetId, id);
    if (!existing) throw new NotFoundError('Data request');
    const fields = await this.deps.datasets.checkRequestFields(membership, input, 'body');
    if (fields.headers) fields.headers = mergeMaskedHeaders(fields.headers, existing.headers);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.requests.update(datasetId, id, fields, trx);
      await this.deps.datasetVersions.bumpVersion(datasetId, trx);
    });
    return this.view(membership, datasetId, id);
  }

  async delete(actor: Actor, teamId: number, datasetId: number, id: number): Promise<void> {
    const { dataset } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:write');
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.deps.requests.delete(datasetId, id, trx))) throw new NotFoundError('Data request');
      if (dataset.main_dr_id === id) {
        const next = (await this.deps.requests.listForDatasets([datasetId], trx))[0];
        await this.deps.datasetVersions.update(teamId, datasetId, { main_dr_id: next?.id ?? null }, trx);
      } else {
        await this.deps.datasetVersions.bumpVersion(datasetId, trx);
      }
    });
  }

  async createBinding(actor: Actor, teamId: number, datasetId: number, id: number, input: BindingInput): Promise<DataRequestView> {
    const { membership } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:write');
    if (!(await this.deps.requests.find(datasetId, id))) throw new NotFoundError('Data request');
    const binding = checkBinding(input, 'body');
    assertUniqueBindingName(await this.deps.requests.bindingsOf('DataRequest', [String(id)]), binding.name);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.requests.createBinding(teamId, 'DataRequest', String(id), binding, trx);
      await this.deps.datasetVersions.bumpVersion(datasetId, trx);
    });
    return this.view(membership, datasetId, id);
  }

  async updateBinding(actor: Actor, teamId: number, datasetId: number, id: number, bindingId: number, input: Partial<BindingInput>): Promise<DataRequestView> {
    const { membership } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:write');
    if (!(await this.deps.requests.find(datasetId, id))) throw new NotFoundError('Data request');
    const existing = await this.deps.requests.findBinding('DataRequest', String(id), bindingId);
    if (!existing) throw new NotFoundError('Variable binding');
    const merged = checkBinding(
      {
        name: input.name ?? existing.name,
        type: input.type ?? existing.type,
        default_value: input.default_value === undefined ? existing.default_value : input.default_value,
        required: input.required ?? existing.required,
      },
      'body',
    );
    assertUniqueBindingName(await this.deps.requests.bindingsOf('DataRequest', [String(id)]), merged.name, bindingId);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.requests.updateBinding(bindingId, merged, trx);
      await this.deps.datasetVersions.bumpVersion(datasetId, trx);
    });
    return this.view(membership, datasetId, id);
  }

  async deleteBinding(actor: Actor, teamId: number, datasetId: number, id: number, bindingId: number): Promise<DataRequestView> {
    const { membership } = await this.deps.datasets.load(actor, teamId, datasetId, 'dataset:write');
    if (!(await this.deps.requests.find(datasetId, id))) throw new NotFoundError('Data request');
    if (!(await this.deps.requests.findBinding('DataRequest', String(id), bindingId))) throw new NotFoundError('Variable binding');
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.requests.deleteBinding(bindingId, trx);
      await this.deps.datasetVersions.bumpVersion(datasetId, trx);
    });
    return this.view(membership, datasetId, id);
  }

  private async view(membership: Membership, datasetId: number, id: number): Promise<DataRequestView> {
    const record = await this.deps.requests.find(datasetId, id);
    if (!record) throw new NotFoundError('Data request');
    return (await this.deps.datasets.requestViews(membership, [record]))[0]!;
  }
}

import { NotFoundError } from '../../errors/index.js';
import type { AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import type { SavedQueriesRepository, SavedQueryFields } from './saved-queries-repository.js';
import type { SavedQueryInput, SavedQueryView } from './saved-queries-schemas.js';

export interface SavedQueriesDeps {
  savedQueries: SavedQueriesRepository;
  access: AccessService;
}

/**
 * Saved queries: query texts a team keeps to reuse in its data requests, per connection type.
 * As in Chartbrew, team owners and admins manage them.
 */
export class SavedQueriesService {
  constructor(private readonly deps: SavedQueriesDeps) {}

  async list(actor: Actor, teamId: number, type: string | undefined): Promise<SavedQueryView[]> {
    await this.deps.access.require(actor, teamId, 'savedQuery:manage');
    return this.deps.savedQueries.list(teamId, type);
  }

  async create(actor: Actor, teamId: number, input: SavedQueryInput): Promise<SavedQueryView> {
    const membership = await this.deps.access.require(actor, teamId, 'savedQuery:manage');
    const id = await this.deps.savedQueries.create(teamId, membership.userId, fieldsOf(input));
    return this.find(teamId, id);
  }

  async update(actor: Actor, teamId: number, id: number, input: SavedQueryInput): Promise<SavedQueryView> {
    await this.deps.access.require(actor, teamId, 'savedQuery:manage');
    if (!(await this.deps.savedQueries.update(teamId, id, fieldsOf(input)))) throw new NotFoundError('Saved query');
    return this.find(teamId, id);
  }

  async delete(actor: Actor, teamId: number, id: number): Promise<void> {
    await this.deps.access.require(actor, teamId, 'savedQuery:manage');
    if (!(await this.deps.savedQueries.delete(teamId, id))) throw new NotFoundError('Saved query');
  }

  private async find(teamId: number, id: number): Promise<SavedQueryView> {
    const found = await this.deps.savedQueries.find(teamId, id);
    if (!found) throw new NotFoundError('Saved query');
    return found;
  }
}

/** Only the three writable fields, and only those sent. */
function fieldsOf(input: SavedQueryInput): SavedQueryFields {
  const fields: SavedQueryFields = {};
  if (input.summary !== undefined) fields.summary = input.summary;
  if (input.query !== undefined) fields.query = input.query;
  if (input.type !== undefined) fields.type = input.type;
  return fields;
}

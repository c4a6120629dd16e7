import { randomId } from '../../crypto/tokens.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import { toIso } from '../../store/columns.js';
import type { ChartsRepository } from '../charts/repository.js';
import type { ProjectsService } from '../projects/service.js';
import type { EntityRef, SharePolicyFields, SharePolicyRecord, SharingRepository } from './repository.js';
import type { UpdateSharePolicyInput } from './schemas.js';

/** Which entity a share route addresses: a dashboard, or a chart of that dashboard. */
export interface ShareTarget {
  projectId: number;
  chartId?: number;
}

export class SharingService {
  constructor(
    private readonly sharing: SharingRepository,
    private readonly projects: ProjectsService,
    private readonly charts: ChartsRepository,
  ) {}

  async create(actor: Actor, target: ShareTarget): Promise<SharePolicyRecord> {
    const entity = await this.entity(actor, target);
    // 144 random bits, URL-safe: unguessable, and the key of public chart share URLs.
    return this.sharing.create(entity, randomId(18));
  }

  async list(actor: Actor, target: ShareTarget): Promise<SharePolicyRecord[]> {
    return this.sharing.list(await this.entity(actor, target));
  }

  async update(actor: Actor, target: ShareTarget, policyId: number, input: UpdateSharePolicyInput): Promise<SharePolicyRecord> {
    const entity = await this.entity(actor, target);
    const fields: SharePolicyFields = {};
    if (input.params !== undefined) {
      const seen = new Set<string>();
      for (const { key } of input.params) {
        if (seen.has(key)) throw ValidationError.field('body.params', `has the key "${key}" more than once`);
        seen.add(key);
      }
      fields.params = input.params.map(({ key, value }) => ({ key, value }));
    }
    if (input.allow_params !== undefined) fields.allow_params = input.allow_params;
    if (input.expires_at !== undefined) fields.expires_at = input.expires_at === null ? null : toIso(input.expires_at);
    if (input.visibility !== undefined) fields.visibility = input.visibility;
    const policy = await this.sharing.update(entity, policyId, fields);
    if (!policy) throw new NotFoundError('Share policy');
    return policy;
  }

  /** Invalidates every token issued for the policy so far; the policy itself stays. */
  async revoke(actor: Actor, target: ShareTarget, policyId: number): Promise<SharePolicyRecord> {
    const policy = await this.sharing.revoke(await this.entity(actor, target), policyId);
    if (!policy) throw new NotFoundError('Share policy');
    return policy;
  }

  async delete(actor: Actor, target: ShareTarget, policyId: number): Promise<void> {
    if (!(await this.sharing.delete(await this.entity(actor, target), policyId))) throw new NotFoundError('Share policy');
  }

  /** A policy of an entity the actor may manage sharing for (share tokens pick one of these). */
  async findForTarget(actor: Actor, target: ShareTarget, policyId?: number): Promise<{ entity: EntityRef; policy: SharePolicyRecord | undefined }> {
    const entity = await this.entity(actor, target);
    if (policyId !== undefined) return { entity, policy: await this.sharing.find(entity, policyId) };
    const policies = await this.sharing.list(entity);
    return { entity, policy: policies[policies.length - 1] };
  }

  /** Public chart links: the share string is all a visitor has. Access rules are the caller's. */
  async findByShareString(shareString: string): Promise<SharePolicyRecord | undefined> {
    return this.sharing.findByShareString(shareString);
  }

  /** Share tokens name their policy by id; includes token_version and team_id for validation. */
  async findById(policyId: number): Promise<SharePolicyRecord | undefined> {
    return this.sharing.findById(policyId);
  }

  /** Only teamOwner/teamAdmin, and projectAdmin on their own dashboards, manage sharing. */
  private async entity(actor: Actor, target: ShareTarget): Promise<EntityRef> {
    const { project } = await this.projects.authorize(actor, target.projectId, 'share:manage');
    if (target.chartId === undefined) return { teamId: project.team_id, type: 'Project', id: project.id };
    if (!(await this.charts.find(project.id, target.chartId))) throw new NotFoundError('Chart');
    return { teamId: project.team_id, type: 'Chart', id: target.chartId };
  }
}

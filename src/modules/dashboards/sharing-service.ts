import { randomId } from '../../crypto/tokens.js';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { Actor } from '../../platform/actor.js';
import type { ChartsService } from './charts-service.js';
import type { Project } from './projects-repository.js';
import type { ProjectsService } from './projects-service.js';
import type { EntityRef, PolicyParam, SharePolicyFields, SharePolicyRecord, SharingRepository } from './sharing-repository.js';
import type { ShareTokenInput, UpdateSharePolicyInput } from './sharing-schemas.js';
import { parseShareInstant } from './share-expiry.js';
import type { ShareTokens } from './share-tokens.js';

/** Which entity a share route addresses: a dashboard, or a chart of that dashboard. */
export interface ShareTarget {
  projectId: number;
  chartId?: number;
}

export interface SharingDeps {
  sharing: SharingRepository;
  projects: ProjectsService;
  charts: ChartsService;
  tokens: ShareTokens;
  appUrl: string;
}

export class SharingService {
  constructor(private readonly deps: SharingDeps) {}

  async create(actor: Actor, target: ShareTarget): Promise<SharePolicyRecord> {
    const { entity } = await this.scope(actor, target);
    // 144 random bits, URL-safe: unguessable, and the key of public chart share URLs.
    return this.deps.sharing.create(entity, randomId(18));
  }

  async list(actor: Actor, target: ShareTarget): Promise<SharePolicyRecord[]> {
    return this.deps.sharing.list((await this.scope(actor, target)).entity);
  }

  async update(actor: Actor, target: ShareTarget, policyId: number, input: UpdateSharePolicyInput): Promise<SharePolicyRecord> {
    const { entity, project } = await this.scope(actor, target);
    const fields: SharePolicyFields = {};
    if (input.params !== undefined) fields.params = uniqueParams(input.params, 'body.params');
    if (input.allow_params !== undefined) fields.allow_params = input.allow_params;
    if (input.expires_at !== undefined) {
      // Chartbrew's app sends "" when the expiry field is emptied: no expiry, as null.
      const at = input.expires_at === null || input.expires_at.trim() === '' ? null : parseShareInstant(input.expires_at, project.timezone, { path: 'body.expires_at', dateOnly: false });
      fields.expires_at = at === null ? null : at.toISOString();
    }
    if (input.visibility !== undefined) fields.visibility = input.visibility;
    const policy = await this.deps.sharing.update(entity, policyId, fields);
    if (!policy) throw new NotFoundError('Share policy');
    return policy;
  }

  /** Invalidates every token issued for the policy so far; the policy itself stays. */
  async revoke(actor: Actor, target: ShareTarget, policyId: number): Promise<SharePolicyRecord> {
    const policy = await this.deps.sharing.revoke((await this.scope(actor, target)).entity, policyId);
    if (!policy) throw new NotFoundError('Share policy');
    return policy;
  }

  async delete(actor: Actor, target: ShareTarget, policyId: number): Promise<void> {
    if (!(await this.deps.sharing.delete((await this.scope(actor, target)).entity, policyId))) throw new NotFoundError('Share policy');
  }

  /** Public chart links: the share string is all a visitor has. Access rules are the caller's. */
  async findByShareString(shareString: string): Promise<SharePolicyRecord | undefined> {
    return this.deps.sharing.findByShareString(shareString);
  }

  /** Share tokens name their policy by id; includes its revision and team_id for validation. */
  async findById(policyId: number): Promise<SharePolicyRecord | undefined> {
    return this.deps.sharing.findById(policyId);
  }

  /**
   * `POST …/share/token`: signs a token for the entity's policy (the one named by `sharePolicyId`,
   * else the newest). `share_policy` first updates the policy's params and allow_params.
   */
  async issueToken(actor: Actor, target: ShareTarget, input: ShareTokenInput): Promise<{ token: string; url: string; sharePolicy: SharePolicyRecord }> {
    const { entity, project } = await this.scope(actor, target);
    const expiresAt = parseExp(input.exp, project.timezone);
    let policy = input.sharePolicyId !== undefined ? await this.deps.sharing.find(entity, input.sharePolicyId) : (await this.deps.sharing.list(entity)).at(-1);
    if (!policy) {
      const what = entity.type === 'Project' ? `POST /project/${project.id}/share/policy` : `POST /project/${project.id}/chart/${entity.id}/share/policy`;
      throw new BadRequestError(
        input.sharePolicyId !== undefined ? 'body.sharePolicyId is not a share policy of this entity' : `Create a share policy first (${what}), then issue a token`,
        'SHARE_POLICY_REQUIRED',
      );
    }
    const changes = input.share_policy;
    if (changes && (changes.params !== undefined || changes.allow_params !== undefined)) {
      const fields: SharePolicyFields = {};
      if (changes.params !== undefined) fields.params = uniqueParams(changes.params, 'body.share_policy.params');
      if (changes.allow_params !== undefined) fields.allow_params = changes.allow_params;
      policy = await this.deps.sharing.update(entity, policy.id, fields);
      if (!policy) throw new NotFoundError('Share policy');
    }
    if (policy.expires_at !== null && Date.parse(policy.expires_at) <= Date.now()) {
      throw new BadRequestError('The share policy has expired; move its expires_at before issuing a token', 'SHARE_POLICY_EXPIRED');
    }
    const token = await this.deps.tokens.issue({
      subject: { type: entity.type, id: entity.id },
      policyId: policy.id,
      version: policy.revision,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
    const query = `token=${encodeURIComponent(token)}`;
    const url =
      entity.type === 'Project'
        ? `${this.deps.appUrl}/report/${encodeURIComponent(project.brewName)}?${query}`
        : `${this.deps.appUrl}/chart/${encodeURIComponent(policy.share_string)}/embedded?${query}`;
    return { token, url, sharePolicy: policy };
  }

  /** Only teamOwner/teamAdmin, and projectAdmin on their own dashboards, manage sharing. */
  private async scope(actor: Actor, target: ShareTarget): Promise<{ entity: EntityRef; project: Project }> {
    const { project } = await this.deps.projects.authorize(actor, target.projectId, 'share:manage');
    if (target.chartId === undefined) return { project, entity: { teamId: project.team_id, type: 'Project', id: project.id } };
    if (!(await this.deps.charts.isOnDashboard(project.id, target.chartId))) throw new NotFoundError('Chart');
    return { project, entity: { teamId: project.team_id, type: 'Chart', id: target.chartId } };
  }
}

function uniqueParams(params: readonly PolicyParam[], path: string): PolicyParam[] {
  const seen = new Set<string>();
  for (const { key } of params) {
    if (seen.has(key)) throw ValidationError.field(path, `has the key "${key}" more than once`);
    seen.add(key);
  }
  return params.map(({ key, value }) => ({ key, value }));
}

/**
 * `exp` as epoch seconds; a value that is not an ISO 8601 date or date-time (a zone-less one read
 * in the dashboard's zone, share-expiry.ts) or is not in the future is a 400. "" and null are no `exp`.
 */
function parseExp(raw: string | null | undefined, timezone: string | null): number | undefined {
  if (raw === undefined || raw === null || raw.trim() === '') return undefined;
  const seconds = Math.floor(parseShareInstant(raw, timezone, { path: 'body.exp', dateOnly: true }).getTime() / 1000);
  if (seconds <= Math.floor(Date.now() / 1000)) throw ValidationError.field('body.exp', 'must be in the future');
  return seconds;
}

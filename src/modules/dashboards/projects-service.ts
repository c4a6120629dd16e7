import type { PasswordHasher } from '../../crypto/passwords.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors/index.js';
import { assertCan, type AccessService } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { can, ownsProject, projectScope, type Action, type Grant, type Membership } from '../../platform/authorization.js';
import type { Static } from 'typebox';
import type { Db } from '../../store/index.js';
import type { Chart, ChartsRepository } from './charts-repository.js';
import type { SharingRepository } from './sharing-repository.js';
import type { DashboardViews, JsonBody } from './dashboard-views.js';
import type { Project, ProjectFields, ProjectsRepository, UpdateSchedule } from './projects-repository.js';
import type { CreateProjectInput, ProjectInput, ProjectListItem as ProjectListItemSchema, SnapshotScheduleView, UpdateScheduleBody } from './projects-schemas.js';
import { dashboardDue, scheduleZone } from '../../runtime/scheduler/due.js';
import { isColour, isHttpUrl, isIanaZone, isLogoReference, RESERVED_BREW_NAMES, slugify, slugWithSuffix } from './projects-validation.js';

/** A dashboard as the team's list gives it: its own fields and its charts' ids, names and layouts. */
export type ProjectListItem = Static<typeof ProjectListItemSchema>;

/** A dashboard the actor may act on, with the membership that allowed it. */
export interface AuthorizedProject {
  project: Project;
  membership: Membership;
  /** The dashboard's view version, read with it. */
  viewVersion: number;
}

// The documented defaults of a new dashboard.
const DEFAULT_BACKGROUND = '#103751';
const DEFAULT_TITLE_COLOUR = 'white';
const BREW_NAME_ATTEMPTS = 6;

export interface ProjectsDeps {
  db: Db;
  projects: ProjectsRepository;
  charts: ChartsRepository;
  sharing: SharingRepository;
  views: DashboardViews;
  access: AccessService;
  passwords: PasswordHasher;
  /** The scheduler's clock, for `nextUpdateAt`. */
  clock: () => Date;
}

/**
 * Chartbrew's `snapshotSchedule` of a dashboard, kept by the automation context's deliveries as the
 * dashboard's subscription of that origin: written by a dashboard update, read back into its answer.
 */
export interface SnapshotSchedules {
  apply(actor: Actor, project: { id: number; team_id: number; timezone: string | null }, snapshotSchedule: unknown): Promise<void>;
  /** Read by a member: one who may not change the dashboard sees only their own address among its recipients. */
  read(project: { id: number; team_id: number }, membership: Membership): Promise<SnapshotScheduleView | null>;
}

export class ProjectsService {
  private snapshotSchedules: SnapshotSchedules | undefined;

  constructor(private readonly deps: ProjectsDeps) {}

  /** Set by the composition root: deliveries live in a context above this one. */
  useSnapshotSchedules(schedules: SnapshotSchedules): void {
    this.snapshotSchedules = schedules;
  }

  /**
   * The access check of every route under /project/{id}: a dashboard of a team the actor is not in
   * is a 404 (its existence is not revealed); inside the team, the role and the project list decide (403).
   */
  async authorize(actor: Actor, projectId: number, action: Action): Promise<AuthorizedProject> {
    const found = await this.deps.projects.findWithGrant(projectId, actor.kind === 'user' ? actor.userId : null);
    if (!found) throw new NotFoundError('Project');
    const membership = await this.admit(actor, found.project.team_id, projectId, found.grant, action);
    return { project: found.project, membership, viewVersion: found.viewVersion };
  }

  /**
   * The access decision of `authorize` for a dashboard and grant already read (with a chart of it,
   * say): outside the team a 404, inside it the role and the project list decide (403).
   */
  async admit(actor: Actor, teamId: number, projectId: number, grant: Grant | undefined, action: Action): Promise<Membership> {
    let membership: Membership;
    try {
      membership = await this.deps.access.fromGrant(actor, teamId, grant);
    } catch (error) {
      if (error instanceof ForbiddenError) throw new NotFoundError('Project');
      throw error;
    }
    assertCan(membership, action);
    if (!ownsProject(membership, projectId)) throw new ForbiddenError('This dashboard is not one of your projects');
    return membership;
  }

  async list(actor: Actor, teamId: number): Promise<ProjectListItem[]> {
    const membership = await this.deps.access.require(actor, teamId, 'project:read');
    const projects = await this.deps.projects.listByTeam(teamId, projectScope(membership));
    const summaries = await this.deps.charts.summaries(projects.map((p) => p.id));
    return projects.map((project) => ({
      ...project,
      nextUpdateAt: nextUpdateAt(project, this.deps.clock()),
      Charts: summaries.filter((c) => c.project_id === project.id).map(({ id, name, layout }) => ({ id, name, layout })),
    }));
  }

  async get(actor: Actor, projectId: number): Promise<JsonBody> {
    const { project, membership, viewVersion } = await this.authorize(actor, projectId, 'project:read');
    return this.view(project, membership, viewVersion);
  }

  async create(actor: Actor, input: CreateProjectInput): Promise<JsonBody> {
    const membership = await this.deps.access.require(actor, input.team_id, 'project:create');
    const fields = await this.prepare(input, membership, undefined);
    const name = fields.name ?? input.name.trim();
    fields.backgroundColor ??= DEFAULT_BACKGROUND;
    fields.titleColor ??= DEFAULT_TITLE_COLOUR;

    const slug = slugify(name);
    const taken = RESERVED_BREW_NAMES.has(slug) || (await this.deps.projects.brewNameTaken(slug));
    let candidate = taken ? slugWithSuffix(slug) : slug;
    for (let attempt = 0; attempt < BREW_NAME_ATTEMPTS; attempt += 1) {
      const project = await this.deps.projects.create(input.team_id, candidate, { ...fields, name });
      if (project) return this.view(project, membership);
      candidate = slugWithSuffix(slug);
    }
    throw new Error('Could not find a free brewName');
  }

  async update(actor: Actor, projectId: number, input: ProjectInput): Promise<JsonBody> {
    const { project, membership, viewVersion } = await this.authorize(actor, projectId, 'project:update');
    const { snapshotSchedule, ...rest } = input;
    const fields = await this.prepare(rest, membership, project);
    if (snapshotSchedule !== undefined) {
      if (!this.snapshotSchedules) throw ValidationError.field('body.snapshotSchedule', 'is not supported by this server');
      await this.snapshotSchedules.apply(actor, { id: project.id, team_id: project.team_id, timezone: fields.timezone ?? project.timezone }, snapshotSchedule);
    }
    // `passwordProtected: true` with no password set is accepted: the report stays closed to
    // anonymous viewers (no password can match) until one is set. It fails closed, never open.
    const updated = await this.deps.projects.update(project.team_id, projectId, fields);
    if (!updated) throw new NotFoundError('Project');
    // The dashboard's own columns do not move its view version: the one read to authorize holds.
    return this.view(updated, membership, viewVersion);
  }

  async delete(actor: Actor, projectId: number): Promise<void> {
    const { project } = await this.authorize(actor, projectId, 'project:delete');
    await this.deps.db.transaction().execute(async (trx) => {
      const chartIds = await this.deps.charts.ids(projectId, trx);
      await this.deps.sharing.deleteForEntities(project.team_id, 'Chart', chartIds, trx);
      await this.deps.sharing.deleteForEntities(project.team_id, 'Project', [projectId], trx);
      // Charts and their dataset configs go with the project (foreign keys cascade).
      if (!(await this.deps.projects.delete(project.team_id, projectId, trx))) throw new NotFoundError('Project');
    });
  }

  /** A dashboard with its charts, for renderers that have already decided access (share links, schedules). */
  async loadDashboard(teamId: number, projectId: number): Promise<(Project & { Charts: Chart[] }) | undefined> {
    const project = await this.deps.projects.findById(teamId, projectId);
    return project && { ...project, Charts: await this.deps.charts.listByProject(projectId) };
  }

  /** A dashboard of a team, for callers that have already decided access (a chart link, a chart's picture). */
  async findInTeam(teamId: number, projectId: number): Promise<Project | undefined> {
    return this.deps.projects.findById(teamId, projectId);
  }

  /** A dashboard by id for a share link's route, which decides access itself (token, public flag, password). */
  async findForLink(projectId: number): Promise<Project | undefined> {
    return this.deps.projects.findAnyTeam(projectId);
  }

  /** Public report URLs name the dashboard by brewName. */
  async findByBrewName(brewName: string): Promise<Project | undefined> {
    return (await this.deps.projects.findByBrewName(brewName))?.project;
  }

  /** False when no password was ever set or the password does not match. */
  async checkPassword(teamId: number, projectId: number, password: string): Promise<boolean> {
    const hash = await this.deps.projects.passwordHash(teamId, projectId);
    return hash !== null && this.deps.passwords.verify(password, hash);
  }

  /** A scheduled refresh of the dashboard started at `at` (`lastUpdatedAt`), in the refresh's transaction when given. */
  async markRefreshed(projectId: number, at: string, db?: Db): Promise<void> {
    await this.deps.projects.markRefreshed(projectId, at, db);
  }

  /**
   * The dashboard with its charts and, for those who manage sharing (policies carry locked
   * parameters), its share policies. With the view version read with `project`, the charts and
   * policies serialized at that version are reused.
   */
  private async view(project: Project, membership: Membership, viewVersion?: number): Promise<JsonBody> {
    const snapshotSchedule = (await this.snapshotSchedules?.read(project, membership)) ?? null;
    const head = { ...project, nextUpdateAt: nextUpdateAt(project, this.deps.clock()), snapshotSchedule };
    return this.deps.views.body(head, viewVersion, can(membership, 'share:manage'));
  }

  private assertMayShare(membership: Membership, what: string): void {
    if (!can(membership, 'share:manage')) throw new ForbiddenError(`The ${membership.role} role may not ${what}: it may not share dashboards`);
  }

  /** Validates and normalises the writable fields; only known keys survive (no mass assignment). */
  private async prepare(input: ProjectInput, membership: Membership, current: Project | undefined): Promise<ProjectFields> {
    const fields: ProjectFields = {};
    if (input.name !== undefined) {
      const name = input.name.trim();
      if (name === '') throw ValidationError.field('body.name', 'must not be empty');
      fields.name = name;
    }
    for (const key of ['dashboardTitle', 'description'] as const) {
      if (input[key] !== undefined) fields[key] = input[key];
    }
    // Publishing and report passwords decide who sees the dashboard without an account: they follow
    // the sharing rights of the role table, like share policies and tokens.
    for (const key of ['public', 'passwordProtected'] as const) {
      const value = input[key];
      if (value === undefined) continue;
      if (value !== (current?.[key] ?? false)) this.assertMayShare(membership, `change ${key}`);
      fields[key] = value;
    }
    for (const key of ['backgroundColor', 'titleColor'] as const) {
      const value = input[key];
      if (value === undefined) continue;
      if (value !== null && !isColour(value)) {
        throw ValidationError.field(`body.${key}`, 'must be a colour: #rgb, #rrggbb, #rrggbbaa, rgb()/rgba() or a CSS colour name');
      }
      fields[key] = value === null ? null : value.trim();
    }
    for (const key of ['headerCode', 'footerCode'] as const) {
      const value = input[key];
      if (value === undefined) continue;
      // Code runs on the public report page, so only team-wide roles may change it.
      if (!can(membership, 'project:code') && value !== (current?.[key] ?? null)) {
        throw new ForbiddenError(`Only a teamOwner or teamAdmin may change ${key}`);
      }
      fields[key] = value;
    }
    if (input.logo !== undefined) {
      const logo = emptyToNull(input.logo);
      if (logo !== null && !isLogoReference(logo)) throw ValidationError.field('body.logo', 'must be an http(s) URL or a relative path');
      fields.logo = logo;
    }
    if (input.logoLink !== undefined) {
      const link = emptyToNull(input.logoLink);
      if (link !== null && !isHttpUrl(link)) throw ValidationError.field('body.logoLink', 'must be an absolute http(s) URL');
      fields.logoLink = link;
    }
    if (input.timezone !== undefined) {
      if (input.timezone !== null && !isIanaZone(input.timezone)) {
        throw ValidationError.field('body.timezone', 'must be an IANA time zone name such as Europe/Paris');
      }
      fields.timezone = input.timezone;
    }
    if (input.updateSchedule !== undefined) {
      fields.updateSchedule = input.updateSchedule === null ? null : normaliseSchedule(input.updateSchedule);
    }
    if (input.password !== undefined) {
      this.assertMayShare(membership, 'set the report password');
      fields.passwordHash = input.password === null ? null : await this.deps.passwords.hash(input.password);
    }
    return fields;
  }
}

/** When the schedule refreshes the dashboard next, by the scheduler's own rules. */
function nextUpdateAt(project: Project, now: Date): string | null {
  const schedule = project.updateSchedule;
  return dashboardDue(schedule, { timezone: scheduleZone(project.timezone, schedule), lastUpdatedAt: project.lastUpdatedAt, now }).nextAt;
}

function emptyToNull(value: string | null): string | null {
  return value === null || value.trim() === '' ? null : value.trim();
}

function normaliseSchedule(input: UpdateScheduleBody): UpdateSchedule {
  const schedule: UpdateSchedule = {};
  if (input.timezone !== undefined) {
    if (!isIanaZone(input.timezone)) {
      throw ValidationError.field('body.updateSchedule.timezone', 'must be an IANA time zone name such as Europe/Paris');
    }
    schedule.timezone = input.timezone;
  }
  if (input.frequency !== undefined) schedule.frequency = input.frequency;
  if (input.frequencyNumber !== undefined) schedule.frequencyNumber = String(input.frequencyNumber);
  if (input.time !== undefined) {
    const { hour, minute, second, millisecond } = input.time;
    schedule.time = {
      ...(hour !== undefined ? { hour } : {}),
      ...(minute !== undefined ? { minute } : {}),
      ...(second !== undefined ? { second } : {}),
      ...(millisecond !== undefined ? { millisecond } : {}),
    };
  }
  if (input.dayOfWeek !== undefined) schedule.dayOfWeek = input.dayOfWeek;
  if (input.daysOfWeek !== undefined) schedule.daysOfWeek = [...new Set(input.daysOfWeek)];
  return schedule;
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ValidationError } from '../../errors/index.js';
import { actorOf } from '../../platform/auth.js';
import { Ref } from '../../platform/http-schemas.js';
import { ChartParams } from './charts-schemas.js';
import { ProjectParams } from './projects-schemas.js';
import type { SnapshotsService } from './snapshots-service.js';
import { ChartImageQuery, SnapshotLink, SnapshotRequest } from './snapshots-schemas.js';

const Bytes = (description: string) => ({ 200: Type.String({ description }) });

/**
 * Chartbrew's client asks for its snapshot with `Accept: application/json` and shows
 * `<API host>/<snapshot_path>`: such a caller gets a signed link to the picture instead of its bytes.
 */
function wantsLink(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  return types.includes('application/json') && !types.some((type) => type === '*/*' || type.startsWith('image/') || type === 'application/pdf');
}

function send(reply: FastifyReply, picture: { contentType: string; body: Buffer; dataUpdatedAt: string | null }, name: string, extra: Record<string, string> = {}) {
  reply.header('content-type', picture.contentType).header('cache-control', 'no-store').header('content-disposition', `inline; filename="${name}"`);
  // A picture's data time, for who needs to say how old it is.
  if (picture.dataUpdatedAt) reply.header('x-plotline-data-updated-at', picture.dataUpdatedAt);
  for (const [key, value] of Object.entries(extra)) reply.header(key, value);
  return reply.send(picture.body);
}

/** Pictures for members (authenticated scope): the dashboard and chart read rights decide. */
export const snapshotRoutes: FastifyPluginAsyncTypebox<{ snapshots: SnapshotsService }> = async (app, { snapshots }) => {
  const tags = ['pictures'];
  app.post(
    '/project/:id/snapshot',
    {
      schema: {
        tags,
        operationId: 'snapshotDashboard',
        summary: "A picture of the dashboard as its report shows it: PNG or PDF, drawn on the server from its charts' data, with its title, data time and the filters used",
        description:
          'Answers the picture itself, unless the request accepts only JSON (`Accept: application/json`, as Chartbrew\'s client sends it): then `{snapshot_path}`, a signed link to the same picture that expires in 7 days (no filter state: a link draws the saved data).',
        params: ProjectParams,
        body: Ref(SnapshotRequest, {
          examples: [{ format: 'png', theme: 'light', width: 1280 }, { format: 'pdf', pages: 'screens', filters: [{ type: 'date', preset: 'last_30_days' }] }],
        }),
        response: {
          200: {
            description: 'The PNG or PDF (`x-plotline-pages` says how many PDF pages), or with `Accept: application/json` a signed link to it',
            content: {
              'image/png': { schema: Type.String({ format: 'binary' }) },
              'application/pdf': { schema: Type.String({ format: 'binary' }) },
              'application/json': { schema: Ref(SnapshotLink) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const filters = body.filters !== undefined || body.variables !== undefined ? { filters: body.filters ?? [], variables: body.variables } : undefined;
      const scope = await snapshots.dashboardScope(actorOf(request), request.params.id, filters !== undefined);
      const format = body.format ?? 'png';
      const width = body.width ?? body.viewport?.width;
      if (wantsLink(request.headers.accept)) {
        if (filters !== undefined) throw ValidationError.field('body.filters', 'cannot go into a picture link; ask for the picture itself (Accept: image/png or application/pdf)');
        if (body.pages === 'single') throw ValidationError.field('body.pages', 'cannot go into a picture link; ask for the PDF itself (Accept: application/pdf)');
        const link = snapshots.imageLink(scope, { format, theme: body.theme, width });
        return reply.header('cache-control', 'no-store').type('application/json').send({ snapshot_path: link.path, url: link.url, expiresAt: link.expiresAt });
      }
      const picture = await snapshots.dashboardPicture(scope, { format, theme: body.theme, width, pages: body.pages, filters });
      return send(reply, picture, `dashboard-${request.params.id}.${format}`, { 'x-plotline-pages': String(picture.pages) });
    },
  );

  app.get(
    '/project/:project_id/chart/:id/image',
    {
      schema: {
        tags,
        operationId: 'chartImage',
        summary: "A picture of the chart's card as the report shows it, PNG or SVG, drawn on the server from its data",
        params: ChartParams,
        querystring: ChartImageQuery,
        produces: ['image/png', 'image/svg+xml'],
        response: Bytes('The PNG or SVG'),
      },
    },
    async (request, reply) => {
      const scope = await snapshots.chartScope(actorOf(request), request.params.project_id, request.params.id);
      const { format = 'png', theme, width, height } = request.query;
      const picture = await snapshots.chartPicture(scope, { format, theme, width, height });
      return send(reply, picture, `chart-${request.params.id}.${format}`);
    },
  );
};

/** Signed image links (public scope, rate limited like the share routes). */
export const publicImageRoutes: FastifyPluginAsyncTypebox<{ snapshots: SnapshotsService; rateLimit: number }> = async (app, { snapshots, rateLimit }) => {
  app.get(
    '/image/:token',
    {
      config: { rateLimit: { max: rateLimit, timeWindow: 60_000 } },
      schema: {
        tags: ['pictures'],
        operationId: 'signedImage',
        summary: 'The picture a signed image link names (a chart PNG/SVG or a dashboard PNG/PDF), until the link expires; 401 IMAGE_LINK_INVALID or IMAGE_LINK_EXPIRED',
        security: [],
        params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 2048, description: 'The signed token of the link' }) }),
        produces: ['image/png', 'image/svg+xml', 'application/pdf'],
        response: Bytes('The picture'),
      },
    },
    async (request, reply) => {
      const picture = await snapshots.linkedPicture(request.params.token);
      const extension = picture.contentType === 'application/pdf' ? 'pdf' : picture.contentType === 'image/svg+xml' ? 'svg' : 'png';
      return send(reply, picture, `picture.${extension}`);
    },
  );
};

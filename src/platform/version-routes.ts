import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Ref } from './http-schemas.js';

/** The version in the package's package.json (this file runs from src/ under tsx, or from dist/). */
export function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const version = parsed && typeof parsed === 'object' && 'version' in parsed ? parsed.version : undefined;
      return typeof version === 'string' ? version : '0.0.0';
    }
    const parent = path.dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}

export const UpdateCheck = Type.Object(
  {
    version: Type.String({ description: 'The running version (package.json)' }),
    latest: Type.Null({ description: 'Always null: the server never calls out to learn of newer releases' }),
    updateAvailable: Type.Boolean(),
    upToDate: Type.Boolean({ description: "Chartbrew's own answer when there is nothing to announce" }),
  },
  { $id: 'UpdateCheck' },
);

/**
 * `GET /update`: Chartbrew's web app asks it whether to announce a new release. Chartbrew asks its
 * vendor's server; Plotline answers from what it is, without any outbound call, so the app announces
 * nothing. Public, as in Chartbrew: a version number is no secret.
 */
export const versionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const version = packageVersion();
  app.get(
    '/update',
    {
      schema: {
        tags: ['operations'],
        operationId: 'checkForUpdates',
        summary: 'The running version; never an update to announce (no outbound call)',
        security: [],
        response: { 200: Ref(UpdateCheck) },
      },
    },
    async () => ({ version, latest: null, updateAvailable: false, upToDate: true }),
  );
};

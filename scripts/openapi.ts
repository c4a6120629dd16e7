// Writes the OpenAPI document the server serves at /openapi.json, and the editor's typed client
// types generated from it (openapi-typescript). Run: `npx tsx scripts/openapi.ts [--check]`.
// With --check it only reports whether web/app/src/api/schema.d.ts is current (exit 1 if not).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { createContainer } from '../src/container.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_TYPES = path.join(root, 'web', 'app', 'src', 'api', 'schema.d.ts');

/** The document exactly as a running server answers it (servers[] aside, which depends on BASE_URL). */
export async function openapiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plotline-openapi-'));
  try {
    const config = loadConfig({
      PLOTLINE_DATA_DIR: dataDir,
      PLOTLINE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PLOTLINE_SHARE_SECRET: randomBytes(32).toString('hex'),
      BASE_URL: 'http://localhost:4019',
      LOG_LEVEL: 'silent',
    });
    const container = await createContainer(config);
    const app = await buildApp(container, { logLevel: 'silent', defaultMetrics: false });
    await app.ready();
    const doc = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    await container.close();
    return JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function schemaTypes(doc: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(doc as never);
  return `// Generated from /openapi.json by scripts/openapi.ts (openapi-typescript). Do not edit.\n${astToString(ast)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const doc = await openapiDocument();
  const types = await schemaTypes(doc);
  if (process.argv.includes('--check')) {
    const current = readFileSync(SCHEMA_TYPES, 'utf8');
    if (current !== types) {
      process.stderr.write('web/app/src/api/schema.d.ts is stale: run `npx tsx scripts/openapi.ts`\n');
      process.exit(1);
    }
  } else {
    writeFileSync(SCHEMA_TYPES, types);
    const out = process.argv.find((a) => a.endsWith('.json'));
    if (out) writeFileSync(out, JSON.stringify(doc, null, 2));
  }
}

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { schemaTypes, SCHEMA_TYPES } from '../../scripts/openapi.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The names the editor's types use; each must stay published. */
const COMPONENTS = [
  'Error',
  'User',
  'Team',
  'TeamMember',
  'ApiKey',
  'Connection',
  'Dataset',
  'DataRequest',
  'VariableBinding',
  'Project',
  'Chart',
  'ChartDatasetConfig',
  'SharePolicy',
  'SharedChart',
  'SharedDashboard',
  'Alert',
  'RefreshRun',
  'DatasetRun',
];

type Operation = { operationId?: string; requestBody?: { content: Record<string, { schema?: Record<string, unknown>; example?: unknown; examples?: Record<string, { value: unknown }> }> } };

describe('/openapi.json for people and generated clients', () => {
  let t: TestApp;
  let operations: { key: string; op: Operation }[];
  let doc: Record<string, any>;
  beforeAll(async () => {
    t = await buildTestApp();
    doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json();
    operations = Object.entries<Record<string, Operation>>(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
  });
  afterAll(() => t.close());

  it('every operation has a unique operationId, named in its route', () => {
    expect(operations.length).toBeGreaterThan(80);
    expect(operations.filter(({ op }) => op.operationId === undefined).map(({ key }) => key)).toEqual([]);
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.filter((id) => typeof id !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.find(({ key }) => key === 'POST /project/{project_id}/chart/quick-create')!.op.operationId).toBe('quickCreateChart');
  });

  it('publishes the named schemas of the contract under components.schemas, and every $ref reaches one', () => {
    const schemas = doc.components.schemas as Record<string, unknown>;
    expect(Object.keys(schemas).length).toBeGreaterThanOrEqual(20);
    for (const name of COMPONENTS) expect(Object.keys(schemas)).toContain(name);
    const refs = new Set<string>();
    JSON.stringify(doc, (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string') refs.add(value);
      return value;
    });
    const missing = [...refs].filter((ref) => !(ref.startsWith('#/components/schemas/') && ref.slice('#/components/schemas/'.length) in schemas));
    expect(missing.filter((ref) => ref !== '#/components/responses/Error')).toEqual([]);
    // Responses refer to their named schema rather than carrying a copy of it.
    expect(doc.paths['/project/{project_id}/chart/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Chart' });
    expect(schemas['Chart']).toMatchObject({ properties: { ChartDatasetConfigs: { items: { $ref: '#/components/schemas/ChartDatasetConfig' } } } });
  });

  it('every JSON request body has an example that its own schema accepts', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const problems: string[] = [];
    let checked = 0;
    for (const { key, op } of operations) {
      const media = op.requestBody?.content['application/json'];
      if (!media) continue;
      const example = media.example ?? Object.values(media.examples ?? {})[0]?.value ?? (media.schema?.['examples'] as unknown[] | undefined)?.[0];
      if (example === undefined) {
        problems.push(`${key}: no example`);
        continue;
      }
      // The body's `$ref`s point into the document's components.
      const validate = ajv.compile({ ...media.schema, components: doc.components });
      if (!validate(example)) problems.push(`${key}: ${ajv.errorsText(validate.errors)}`);
      checked++;
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it('passes `redocly lint` (recommended rules, operationId an error) with no error and no warning', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'plotline-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const run = spawnSync(process.execPath, [path.join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'summary'], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
        timeout: 120_000,
      });
      const output = run.stdout + run.stderr;
      expect(output, output).toContain('Your API description is valid');
      expect(output).not.toMatch(/^(error|warning) /m);
      expect(output).not.toContain('operation-operationId');
      expect(run.status, output).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);

  it("the editor's typed client (web/app/src/api/schema.d.ts) is generated from this very document", async () => {
    const types = await schemaTypes(doc);
    expect(types === readFileSync(SCHEMA_TYPES, 'utf8'), 'stale: run `npx tsx scripts/openapi.ts`').toBe(true);
  });
});

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// ESLint over src/ with the project's eslint.config.js, so `npm test` fails on a lint error and
// names it. The layer rules are also shown to reject what they exist to reject.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

/** Lints `code` as if it were the file at `file` (relative to the root); nothing is written. */
async function lintAs(file: string, code: string): Promise<{ ruleId: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map(({ ruleId, message }) => ({ ruleId, message }));
}

describe('lint', () => {
  it('src/ has no lint problems', { timeout: 180_000 }, async () => {
    const results = await eslint.lintFiles(['src']);
    const problems = results.flatMap((r) =>
      r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line}:${m.column} ${m.ruleId ?? 'fatal'}: ${m.message}`),
    );
    expect(problems).toEqual([]);
    // Guard against a config that silently matches nothing.
    expect(results.length).toBeGreaterThan(100);
  });

  describe('layer rules', () => {
    it('the engine and sources may not import modules, platform or the composition root', async () => {
      for (const file of ['src/engine/probe.ts', 'src/sources/postgres/probe.ts']) {
        const up = file.startsWith('src/engine/') ? '..' : '../..';
        for (const target of ['modules/dashboards/charts-service.js', 'platform/access.js', 'container.js', 'app.js']) {
          const messages = await lintAs(file, `import { x } from '${up}/${target}';\nexport const y = x;\n`);
          expect(messages.map((m) => m.ruleId), `${file} -> ${target}`).toContain('@typescript-eslint/no-restricted-imports');
        }
      }
    });

    it('the SQL lexer imports none of the layers that read SQL through it', async () => {
      for (const target of ['modules/dashboards/charts-service.js', 'platform/access.js', 'container.js', 'sources/errors.js', 'engine/pushdown/sql-text.js']) {
        const messages = await lintAs('src/sql-lexer/probe.ts', `import { x } from '../${target}';\nexport const y = x;\n`);
        expect(messages.map((m) => m.ruleId), target).toContain('@typescript-eslint/no-restricted-imports');
      }
      const engine = await lintAs('src/engine/probe.ts', "import { lexSql } from '../sql-lexer/index.js';\nexport const l = lexSql;\n");
      expect(engine).toEqual([]);
    });

    it('the store may not import modules or platform, even for a type', async () => {
      for (const target of ['modules/dashboards/chart-display.js', 'platform/access.js']) {
        const messages = await lintAs('src/store/probe.ts', `import type { X } from '../${target}';\nexport type Y = X;\n`);
        expect(messages.map((m) => m.ruleId), target).toEqual(['@typescript-eslint/no-restricted-imports']);
      }
    });

    it('platform may not import a module, even for a type', async () => {
      const messages = await lintAs('src/platform/probe.ts', "import type { Team } from '../modules/identity/teams-repository.js';\nexport type T = Team;\n");
      expect(messages.map((m) => m.ruleId)).toEqual(['@typescript-eslint/no-restricted-imports']);
    });

    it('imports between contexts run one way: automation → dashboards → data, identity through platform only', async () => {
      const upward: [string, string][] = [
        ['data', '../dashboards/index.js'],
        ['data', '../automation/index.js'],
        ['data', '../identity/users-service.js'],
        ['dashboards', '../automation/refreshes-service.js'],
        ['dashboards', '../identity/teams-service.js'],
        ['automation', '../identity/users-service.js'],
        ['identity', '../data/index.js'],
        ['identity', '../dashboards/index.js'],
      ];
      for (const [context, target] of upward) {
        const messages = await lintAs(`src/modules/${context}/probe.ts`, `import type { X } from '${target}';\nexport type Y = X;\n`);
        expect(messages.map((m) => m.ruleId), `${context} -> ${target}`).toEqual(['@typescript-eslint/no-restricted-imports']);
      }
    });

    it('a lower context is reached through its index only, never its repositories or helpers, even for a type', async () => {
      for (const [context, target] of [
        ['dashboards', '../data/datasets-repository.js'],
        ['dashboards', '../data/datasets-service.js'],
        ['automation', '../dashboards/charts-repository.js'],
        ['automation', '../data/dataset-runner.js'],
        ['automation', '../../modules/dashboards/charts-repository.js'],
      ]) {
        const messages = await lintAs(`src/modules/${context}/probe.ts`, `import type { X } from '${target}';\nexport type Y = X;\n`);
        expect(messages.map((m) => m.ruleId), `${context} -> ${target}`).toContain('@typescript-eslint/no-restricted-imports');
      }
      for (const [context, target] of [
        ['dashboards', '../data/index.js'],
        ['automation', '../dashboards/index.js'],
        ['automation', '../data/index.js'],
        ['dashboards', './charts-repository.js'],
      ]) {
        expect(await lintAs(`src/modules/${context}/probe.ts`, `import type { X } from '${target}';\nexport type Y = X;\n`), `${context} -> ${target}`).toEqual([]);
      }
    });

    it('every module file lives in a context', async () => {
      const messages = await lintAs('src/modules/probe.ts', 'export const x = 1;\n');
      expect(messages.map((m) => m.ruleId)).toEqual(['no-restricted-syntax']);
    });
  });
});

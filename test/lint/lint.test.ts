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
        for (const target of ['modules/charts/service.js', 'platform/access.js', 'container.js', 'app.js']) {
          const messages = await lintAs(file, `import { x } from '${up}/${target}';\nexport const y = x;\n`);
          expect(messages.map((m) => m.ruleId), `${file} -> ${target}`).toContain('@typescript-eslint/no-restricted-imports');
        }
      }
    });

    it('the SQL lexer imports none of the layers that read SQL through it', async () => {
      for (const target of ['modules/charts/service.js', 'platform/access.js', 'container.js', 'sources/errors.js', 'engine/pushdown/sql-text.js']) {
        const messages = await lintAs('src/sql-lexer/probe.ts', `import { x } from '../${target}';\nexport const y = x;\n`);
        expect(messages.map((m) => m.ruleId), target).toContain('@typescript-eslint/no-restricted-imports');
      }
      const engine = await lintAs('src/engine/probe.ts', "import { lexSql } from '../sql-lexer/index.js';\nexport const l = lexSql;\n");
      expect(engine).toEqual([]);
    });

    it('platform may not import a module, even for a type', async () => {
      const messages = await lintAs('src/platform/probe.ts', "import type { Team } from '../modules/teams/repository.js';\nexport type T = Team;\n");
      expect(messages.map((m) => m.ruleId)).toEqual(['@typescript-eslint/no-restricted-imports']);
    });

    it("a module may not use another module's repository, but may name its record types", async () => {
      const asValue = await lintAs('src/modules/alerts/probe.ts', "import { ChartsRepository } from '../charts/repository.js';\nexport const r = ChartsRepository;\n");
      expect(asValue.map((m) => m.ruleId).sort()).toEqual(['@typescript-eslint/no-restricted-imports', 'no-restricted-imports']);
      const asType = await lintAs('src/modules/alerts/probe.ts', "import type { ChartsRepository } from '../charts/repository.js';\nexport type R = ChartsRepository;\n");
      expect(asType.map((m) => m.ruleId)).toEqual(['no-restricted-imports']);
      const record = await lintAs('src/modules/alerts/probe.ts', "import type { SharePolicyRecord } from '../sharing/repository.js';\nexport type P = SharePolicyRecord;\n");
      expect(record).toEqual([]);
      const own = await lintAs('src/modules/alerts/probe.ts', "import { AlertsRepository } from './repository.js';\nexport const r = AlertsRepository;\n");
      expect(own).toEqual([]);
      const otherService = await lintAs('src/modules/alerts/probe.ts', "import { ChartsService } from '../charts/service.js';\nexport const s = ChartsService;\n");
      expect(otherService).toEqual([]);
    });

    it('no module file is exempt, the run paths included', async () => {
      const probes: [string, string][] = [
        ['src/modules/data-requests/service.ts', "import type { DatasetsRepository } from '../datasets/repository.js';\nexport type R = DatasetsRepository;\n"],
        ['src/modules/dataset-runs/runner.ts', "import type { DataRequestsRepository } from '../data-requests/repository.js';\nexport type R = DataRequestsRepository;\n"],
      ];
      for (const [file, code] of probes) {
        expect((await lintAs(file, code)).map((m) => m.ruleId), file).toEqual(['no-restricted-imports']);
      }
    });
  });
});

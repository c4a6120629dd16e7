// ESLint 9 flat config: typescript-eslint's recommended rules, plus the layer rules of
// docs/decisions/0017-layers-and-lint.md. `npm run lint` runs it; test/lint/lint.test.ts runs it in `npm test`.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Import strings are matched as written (relative paths); a path with no `../` cannot leave its folder.
const UP = '^(\\.\\./)+';
const COMPOSITION_ROOT = {
  regex: `${UP}(container|app)(\\.js)?$`,
  message: 'Only main.ts and server.ts build the app; lower layers receive what they need from the container.',
};
const MODULES = {
  regex: `${UP}modules(/|$)`,
  message: 'Lower layers know nothing of users, teams or dashboards: declare an interface here and let the module implement it.',
};
const PLATFORM = {
  regex: `${UP}platform(/|$)`,
  message: 'Sources and the chart engine know nothing of HTTP, auth or access control.',
};
const SQL_READERS = {
  regex: `${UP}(sources|engine)(/|$)`,
  message: 'The SQL lexer sits below the sources and the engine that read SQL through it.',
};
// From src/modules/X/file.ts another module's repository is `../Y/repository.js`; X's own is `./repository.js`.
const OTHER_REPOSITORY = `${UP}[^./][^/]*/repository(\\.js)?$`;

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'web/**', 'coverage/**', 'test-results/**'] },
  {
    files: ['src/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    rules: {
      // An underscore marks a parameter or binding that is there for its position or to leave a key
      // out of a rest object (`const { a: _a, ...rest } = x`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },

  // ---------- layers ----------
  {
    files: ['src/engine/**/*.ts', 'src/sources/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [MODULES, PLATFORM, COMPOSITION_ROOT] }],
    },
  },
  {
    // Sources and the engine both read SQL text through the lexer; it depends on neither of them,
    // so the engine never reaches a source through it.
    files: ['src/sql-lexer/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [MODULES, PLATFORM, COMPOSITION_ROOT, SQL_READERS] }],
    },
  },
  {
    files: ['src/platform/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [MODULES, COMPOSITION_ROOT] }],
    },
  },
  {
    files: ['src/modules/**/*.ts'],
    ignores: ['src/modules/**/*.test.ts'],
    rules: {
      // Another module's repository: its record types may be named (plain data, what its service
      // returns anyway), nothing that runs.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            COMPOSITION_ROOT,
            {
              regex: OTHER_REPOSITORY,
              allowTypeImports: true,
              message: "Talk to another module through its service (or an interface declared here), never its repository's SQL.",
            },
          ],
        },
      ],
      // ... and not the repository class itself, even as a type: a service holding another module's
      // repository bypasses that module's rules.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: OTHER_REPOSITORY,
              importNamePattern: 'Repository$',
              message: 'Another module\'s repository is its own: depend on its service, or on an interface declared in this module that the container fills.',
            },
          ],
        },
      ],
    },
  },
);

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
// The four contexts of src/modules, lowest first (identity stands apart: the others reach it only
// through platform). From src/modules/<context>/file.ts a sibling is `./x.js` and another context `../<name>/…`.
const CONTEXTS = ['identity', 'data', 'dashboards', 'automation'];
const ABOVE = { identity: ['data', 'dashboards', 'automation'], data: ['identity', 'dashboards', 'automation'], dashboards: ['identity', 'automation'], automation: ['identity'] };
const BELOW = { identity: [], data: [], dashboards: ['data'], automation: ['data', 'dashboards'] };
function contextRules(context) {
  const patterns = [
    COMPOSITION_ROOT,
    {
      regex: `^\\.\\./(${ABOVE[context].join('|')})(/|$)`,
      message: `From ${context}: imports run automation → dashboards → data, never upwards, and identity is reached only through platform.`,
    },
    { regex: '^(\\.\\./){2,}modules(/|$)', message: 'Another context is `../<context>/index.js`, not a path around it.' },
  ];
  if (BELOW[context].length > 0) {
    patterns.push({
      regex: `^\\.\\./(${BELOW[context].join('|')})/(?!index(\\.js)?$)`,
      message: 'A lower context is used only through its index.ts: its services and the types they speak, never its repositories or helpers.',
    });
  }
  return patterns;
}

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
    // The store describes and migrates Plotline's own tables; it knows nothing of what uses them.
    files: ['src/store/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [MODULES, PLATFORM, COMPOSITION_ROOT] }],
    },
  },
  {
    files: ['src/platform/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [MODULES, COMPOSITION_ROOT] }],
    },
  },
  ...CONTEXTS.map((context) => ({
    files: [`src/modules/${context}/**/*.ts`],
    ignores: ['src/modules/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: contextRules(context) }],
    },
  })),
  {
    // A file directly under src/modules belongs to no context.
    files: ['src/modules/*.ts'],
    rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message: 'Every module file lives in one of the contexts: identity, data, dashboards, automation.' }] },
  },
);

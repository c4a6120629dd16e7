import { readFileSync } from 'node:fs';
import type { TSchema, TSchemaOptions } from 'typebox';
import { describe, expect, it } from 'vitest';
import { isSecret, Variables } from './variables.js';

// The README's configuration table is the operator's reference; it must say what the schema does.
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const start = readme.indexOf('\n## Configuration\n');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
/** Rows of the table: | `NAME` | default | meaning | */
const documented = new Map(
  section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [name = '', fallback, ...meaning] = line.slice(2, -2).split(' | ');
      return [name.replaceAll('`', ''), { fallback, meaning: meaning.join(' | ') }] as const;
    }),
);
const declared = Object.entries(Variables.properties) as [string, TSchema][];

describe('the configuration reference in the README', () => {
  it('documents every variable of the schema, and no other', () => {
    expect(start).toBeGreaterThan(0);
    expect([...documented.keys()].sort()).toEqual(declared.map(([name]) => name).sort());
  });

  it("gives each variable the schema's description, and its default when the schema has one", () => {
    for (const [name, schema] of declared) {
      const row = documented.get(name);
      const { description, default: fallback } = schema as TSchemaOptions;
      expect(row?.meaning, name).toBe(description);
      if (fallback !== undefined) expect(row?.fallback, name).toBe(`\`${String(fallback)}\``);
    }
  });

  it('names the _FILE variant of every secret, and of nothing else', () => {
    const files = [...section.matchAll(/`([A-Z_]+)_FILE`/g)].map((match) => match[1]);
    const secrets = declared.filter(([, schema]) => isSecret(schema)).map(([name]) => name);
    expect([...new Set(files)].sort()).toEqual(secrets.sort());
  });
});

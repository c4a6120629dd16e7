import { describe, expect, it } from 'vitest';
import { compileMongoQuery } from '../mongodb/query-parser.js';
import { resolveVariables } from './resolve.js';

describe('MongoDB variables: lists and values left out', () => {
  const vars = resolveVariables({
    bindings: [
      { name: 'countries', type: 'string[]' },
      { name: 'sizes', type: 'number[]' },
      { name: 'days', type: 'date[]' },
      { name: 'q', type: 'string' },
      { name: 'id', type: 'string' },
      { name: 'from', type: 'date' },
    ],
    runtime: { countries: 'US,DE', sizes: [1, 2.5], days: ['2025-01-01', '2025-01-02T10:00:00Z'] },
  });

  it('puts a list where a string is exactly {{name}}: an array of typed values', () => {
    const plan = compileMongoQuery("collection('o').find({ country: { $in: '{{countries}}' }, size: { $nin: '{{sizes}}' }, day: { $in: '{{days}}' } })", vars);
    expect(plan.args[0]).toEqual({
      country: { $in: ['US', 'DE'] },
      size: { $nin: [1, 2.5] },
      day: { $in: [new Date('2025-01-01T00:00:00Z'), new Date('2025-01-02T10:00:00Z')] },
    });
  });

  it('binds null for a variable without a value, alone or inside a longer string; a regex gets nothing added', () => {
    const plan = compileMongoQuery(
      "collection('o').find({ a: '{{q}}', b: 'name: {{q}}', c: /^x{{q}}/i, d: ObjectId('{{id}}'), e: new Date('{{from}}'), f: { $in: '{{countries}}' } })",
      resolveVariables({ bindings: [{ name: 'q', type: 'string' }, { name: 'id', type: 'string' }, { name: 'from', type: 'date' }, { name: 'countries', type: 'string[]' }] }),
    );
    expect(plan.args[0]).toEqual({ a: null, b: null, c: /^x/i, d: null, e: null, f: { $in: null } });
  });

  it('refuses a list inside a longer string or a regex, and where one value is needed', () => {
    for (const query of [
      "collection('o').find({ a: 'in {{countries}}' })",
      "collection('o').find({ a: /{{countries}}/ })",
      "collection('o').find({ _id: ObjectId('{{countries}}') })",
    ]) {
      expect(() => compileMongoQuery(query, vars)).toThrowError(expect.objectContaining({ statusCode: 400, code: 'VARIABLE_INVALID', message: expect.stringContaining('"countries"') }));
    }
  });
});

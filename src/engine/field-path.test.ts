import { describe, expect, it } from 'vitest';
import { EACH, commonArrayPrefix, compileFieldPath, normalizeFieldPath, parseFieldPath } from './field-path.js';
import { scopeFromPath, scopeFromPaths } from './row-scope.js';

describe('parseFieldPath', () => {
  it('drops the root prefix in all its spellings', () => {
    expect(parseFieldPath('root[].a.b')).toEqual(['a', 'b']);
    expect(parseFieldPath('root.a.b')).toEqual(['a', 'b']);
    expect(parseFieldPath('a.b')).toEqual(['a', 'b']);
    expect(parseFieldPath('root[]')).toEqual([]);
    expect(parseFieldPath('root')).toEqual([]);
  });

  it('marks arrays and indexes', () => {
    expect(parseFieldPath('root.items[].x')).toEqual(['items', EACH, 'x']);
    expect(parseFieldPath('root[].orders[].lines[].sku')).toEqual(['orders', EACH, 'lines', EACH, 'sku']);
    expect(parseFieldPath('tags[0]')).toEqual(['tags', '0']);
  });

  it('normalises to one spelling', () => {
    expect(normalizeFieldPath('root[].customer.name')).toBe('customer.name');
    expect(normalizeFieldPath('root.items[].price')).toBe('items[].price');
  });

  it('rejects unclosed brackets', () => {
    expect(() => parseFieldPath('items[.x')).toThrow(/unclosed/);
  });
});

describe('compileFieldPath', () => {
  const row = {
    a: { b: { c: { d: 4 } } },
    n: null,
    items: [{ x: 1 }, { x: 2 }, { y: 9 }],
    nested: [{ lines: [{ sku: 'A' }, { sku: 'B' }] }, { lines: [{ sku: 'C' }] }],
    tags: ['red', 'blue'],
    single: { x: 7 },
  };

  it('reads plain paths at every depth', () => {
    expect(compileFieldPath('root[].a').get(row)).toEqual({ b: { c: { d: 4 } } });
    expect(compileFieldPath('root[].a.b.c').get(row)).toEqual({ d: 4 });
    expect(compileFieldPath('a.b.c.d').get(row)).toBe(4);
    expect(compileFieldPath('root[].missing.x').get(row)).toBeUndefined();
    expect(compileFieldPath('n.x').get(row)).toBeUndefined();
    expect(compileFieldPath('items[1].x').get(row)).toBe(2);
  });

  it('expands inner arrays into one value per element', () => {
    const out: unknown[] = [];
    compileFieldPath('root.items[].x').collect(row, out);
    expect(out).toEqual([1, 2, undefined]);

    const skus: unknown[] = [];
    compileFieldPath('root[].nested[].lines[].sku').collect(row, skus);
    expect(skus).toEqual(['A', 'B', 'C']);

    const tags: unknown[] = [];
    compileFieldPath('tags[]').collect(row, tags);
    expect(tags).toEqual(['red', 'blue']);
  });

  it('treats a scalar where an array was expected as one element', () => {
    const out: unknown[] = [];
    compileFieldPath('single[].x').collect(row, out);
    expect(out).toEqual([7]);
    expect(compileFieldPath('items[].x').multi).toBe(true);
    expect(compileFieldPath('a.b').multi).toBe(false);
  });
});

describe('row scopes', () => {
  it('finds the array prefix shared by all array paths', () => {
    const paths = [parseFieldPath('items[].price'), parseFieldPath('items[].sku')];
    expect(commonArrayPrefix(paths)).toBe(2);
    expect(commonArrayPrefix([parseFieldPath('a[].x'), parseFieldPath('b[].y')])).toBe(0);
  });

  it('reads in-scope fields from the element and others from the record', () => {
    const scope = scopeFromPaths(['country', 'items[].price', null]);
    const row = { country: 'FR', items: [{ price: 3 }, { price: 4 }] };
    const els: unknown[] = [];
    scope.elements!.collect(row, els);
    expect(els).toEqual([{ price: 3 }, { price: 4 }]);
    expect(scope.reader('country').get(row, els[0])).toBe('FR');
    expect(scope.reader('root.items[].price').get(row, els[1])).toBe(4);
  });

  it('takes a table scope from the last [] of a path', () => {
    const scope = scopeFromPath('root[].orders[].id');
    const els: unknown[] = [];
    scope.elements!.collect({ orders: [{ id: 1 }, { id: 2 }] }, els);
    expect(els).toEqual([{ id: 1 }, { id: 2 }]);
    expect(scopeFromPath('root[].id').elements).toBeNull();
  });
});

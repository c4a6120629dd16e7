import { describe, expect, it } from 'vitest';
import { getPath, getQueryParam, pageItems, setQueryParam, shapeResponse } from './index.js';

describe('pagination helpers', () => {
  it('reads lodash-style paths', () => {
    expect(getPath({ a: { b: [{ c: 1 }] } }, 'a.b[0].c')).toBe(1);
    expect(getPath({ a: null }, 'a.b')).toBeUndefined();
  });

  it('sets one query parameter and leaves the others exactly as written', () => {
    expect(setQueryParam('http://h/x?a=%20b&offset=0&c=+', 'offset', '20')).toBe('http://h/x?a=%20b&offset=20&c=+');
    expect(setQueryParam('http://h/x', 'page', '2')).toBe('http://h/x?page=2');
    expect(setQueryParam('http://h/x?q=1#top', 'cursor', 'a&b')).toBe('http://h/x?q=1&cursor=a%26b');
    expect(getQueryParam('http://h/x?limit=10&q=a%20b', 'q')).toBe('a b');
    expect(getQueryParam('http://h/x?limit=10', 'offset')).toBeUndefined();
  });

  it('finds the items of a page', () => {
    expect(pageItems([1, 2])).toEqual({ items: [1, 2], key: undefined });
    expect(pageItems({ meta: [], data: [3] })).toEqual({ items: [3], key: 'data' });
    expect(pageItems({ x: 1 })).toEqual({ items: [], key: undefined });
  });

  it('shapes a single response', () => {
    expect(shapeResponse({ a: 1 }, 10)).toEqual({ data: [{ a: 1 }], rowCount: 1, truncated: false });
    expect(shapeResponse({ a: { b: { c: [1] } } }, 10).data).toEqual({ a: { b: { c: [1] } } });
    expect(shapeResponse(5, 10).data).toEqual([5]);
    expect(shapeResponse([1, 2, 3], 2)).toEqual({ data: [1, 2], rowCount: 2, truncated: true });
  });
});

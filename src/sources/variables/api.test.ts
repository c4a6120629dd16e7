import { describe, expect, it } from 'vitest';
import { compileHeader, compileJsonBody, compileRoute } from './api.js';
import { resolveVariables } from './resolve.js';

const vars = resolveVariables({
  bindings: [
    { name: 'id', type: 'string', default_value: 'a b/c' },
    { name: 'n', type: 'number', default_value: '5' },
    { name: 'on', type: 'boolean', default_value: 'false' },
    { name: 'opt', type: 'string' },
    { name: 'tags', type: 'string[]', default_value: '["a b","c&d"]' },
    { name: 'nums', type: 'number[]', default_value: '[1,2]' },
    { name: 'nolist', type: 'number[]' },
  ],
  runtime: { q: '&x=1#frag', dots: '..', evil: 'x\r\nSet-Cookie: a=b', obj: '{"$ne": null}' },
});

describe('compileRoute', () => {
  it('URL-encodes values per component in the path and the query string', () => {
    expect(compileRoute('/users/{{id}}/orders?limit={{n}}&q={{q}}&on={{on}}', vars)).toBe('/users/a%20b%2Fc/orders?limit=5&q=%26x%3D1%23frag&on=false');
  });

  it('keeps literal text as written', () => {
    expect(compileRoute('/a%20b/x?sort=-created&filter[status]=paid', vars)).toBe('/a%20b/x?sort=-created&filter[status]=paid');
  });

  it('cannot climb out of the path with ../', () => {
    expect(() => compileRoute('/files/{{dots}}/secret', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
    expect(compileRoute('/files/{{x}}', resolveVariables({ runtime: { x: '../admin' } }))).toBe('/files/..%2Fadmin');
    expect(compileRoute('/files/{{x}}', resolveVariables({ runtime: { x: '%0d%0a' } }))).toBe('/files/%250d%250a');
  });

  it('drops a query parameter whose whole value is an unset variable', () => {
    expect(compileRoute('/x?a=1&b={{opt}}&c={{n}}', vars)).toBe('/x?a=1&c=5');
  });

  it('drops a query parameter whose key or value holds a variable without a value (never sends a hole)', () => {
    expect(compileRoute('/x?a=pre-{{opt}}&{{opt}}x=1&c={{n}}&l={{nolist}}', vars)).toBe('/x?c=5');
  });

  it('refuses a path segment holding a variable without a value, naming it', () => {
    expect(() => compileRoute('/users/{{opt}}/orders', vars)).toThrowError(
      expect.objectContaining({ statusCode: 400, code: 'VARIABLE_INVALID', message: expect.stringContaining('"opt" has no value') }),
    );
    expect(() => compileRoute('/users/id-{{opt}}', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
  });

  it('repeats a query parameter once per value of a list, each encoded; a list elsewhere is a 400', () => {
    expect(compileRoute('/x?tag={{tags}}&n={{nums}}', vars)).toBe('/x?tag=a%20b&tag=c%26d&n=1&n=2');
    expect(() => compileRoute('/x/{{tags}}', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID', message: expect.stringContaining('"tags" is a list') }));
    expect(() => compileRoute('/x?t=pre-{{tags}}', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
  });

  it('names an unknown placeholder', () => {
    expect(() => compileRoute('/x/{{who}}', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_UNKNOWN' }));
  });
});

describe('compileHeader', () => {
  it('fills values as text', () => {
    expect(compileHeader('X-Id', 'id-{{id}}', vars)).toEqual(['X-Id', 'id-a b/c']);
  });

  it('leaves out a header holding a variable without a value; refuses a list', () => {
    expect(compileHeader('Authorization', 'Bearer {{opt}}', vars)).toBeUndefined();
    expect(compileHeader('X-{{opt}}', 'v', vars)).toBeUndefined();
    expect(() => compileHeader('X-Tags', '{{tags}}', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
  });

  it('refuses CR/LF (header injection)', () => {
    expect(() => compileHeader('X-A', '{{evil}}', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
    expect(() => compileHeader('X {{id}}', 'v', vars)).toThrowError(expect.objectContaining({ code: 'INVALID_QUERY' }));
  });
});

describe('compileJsonBody', () => {
  it('substitutes typed values into the parsed JSON', () => {
    const body = '{"limit": {{n}}, "on": "{{on}}", "name": "id {{id}}", "list": [{{n}}, "{{opt}}"], "{{id}}": 1}';
    expect(JSON.parse(compileJsonBody(body, vars))).toEqual({ limit: 5, on: false, name: 'id a b/c', list: [5, null], 'a b/c': 1 });
  });

  it('gives null for a string holding a variable without a value, leaves out a key holding one, and sends lists as arrays', () => {
    const body = '{"q": "name:{{opt}}", "{{opt}}": 1, "tags": "{{tags}}", "nums": {{nums}}, "none": {{nolist}}, "keep": "x"}';
    expect(JSON.parse(compileJsonBody(body, vars))).toEqual({ q: null, tags: ['a b', 'c&d'], nums: [1, 2], none: null, keep: 'x' });
    expect(() => compileJsonBody('{"q": "in {{tags}}"}', vars)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
  });

  it('JSON-escapes values: a value cannot add keys or operators', () => {
    const out = compileJsonBody('{"filter": {"status": "{{obj}}"}, "q": "pre {{evil}}"}', vars);
    expect(JSON.parse(out)).toEqual({ filter: { status: '{"$ne": null}' }, q: 'pre x\r\nSet-Cookie: a=b' });
  });

  it('sends a body without placeholders as written', () => {
    expect(compileJsonBody('not json at all', vars)).toBe('not json at all');
  });

  it('refuses a body with placeholders that is not JSON', () => {
    expect(() => compileJsonBody('limit={{n}}', vars)).toThrowError(expect.objectContaining({ code: 'INVALID_QUERY' }));
  });
});

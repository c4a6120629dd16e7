import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { resolveVariables } from '../variables/resolve.js';
import { compileMongoQuery, parseMongoQuery } from './query-parser.js';

const none = resolveVariables({});

describe('parseMongoQuery: plans', () => {
  it('turns a find chain into the exact driver calls', () => {
    expect(compileMongoQuery("collection('orders').find({status: 'paid'}).sort({created_at: -1}).limit(100)", none)).toEqual({
      collection: 'orders',
      method: 'find',
      args: [{ status: 'paid' }],
      steps: [
        { method: 'sort', args: [{ created_at: -1 }] },
        { method: 'limit', args: [100] },
      ],
    });
  });

  it('accepts db.collection(), db.<name> and db[<name>] roots and a trailing toArray()', () => {
    const expected = { collection: 'orders', method: 'find', args: [], steps: [] };
    expect(compileMongoQuery("db.collection('orders').find()", none)).toEqual(expected);
    expect(compileMongoQuery('db.orders.find().toArray();', none)).toEqual(expected);
    expect(compileMongoQuery("db['orders'].find()", none)).toEqual(expected);
    expect(compileMongoQuery("db.getCollection('orders').find()", none)).toEqual(expected);
  });

  it('plans aggregate, findOne, countDocuments, distinct and cursor steps', () => {
    expect(compileMongoQuery("collection('o').aggregate([{ $match: { a: { $gte: 1 } } }, { $group: { _id: '$c', n: { $sum: 1 } } }], { allowDiskUse: true })", none)).toEqual({
      collection: 'o',
      method: 'aggregate',
      args: [[{ $match: { a: { $gte: 1 } } }, { $group: { _id: '$c', n: { $sum: 1 } } }], { allowDiskUse: true }],
      steps: [],
    });
    expect(compileMongoQuery("collection('o').findOne({ _id: ObjectId('64b7f0c2a1b2c3d4e5f60718') })", none).args[0]).toEqual({
      _id: new ObjectId('64b7f0c2a1b2c3d4e5f60718'),
    });
    expect(compileMongoQuery("collection('o').countDocuments({ a: null })", none).method).toBe('countDocuments');
    expect(compileMongoQuery("collection('o').distinct('country', { paid: true })", none).args).toEqual(['country', { paid: true }]);
    expect(compileMongoQuery("collection('o').find({}, { projection: { a: 1 } }).skip(5).project({ b: 0 })", none).steps).toEqual([
      { method: 'skip', args: [5] },
      { method: 'project', args: [{ b: 0 }] },
    ]);
  });

  it('accepts literal values: regexes, dates, negative numbers, nulls, nested arrays', () => {
    const plan = compileMongoQuery(
      "collection('o').find({ name: /^ab.c/i, at: { $gte: new Date('2025-01-01T00:00:00Z'), $lt: ISODate('2025-02-01') }, n: -5, x: null, tags: { $in: ['a', `b`] } })",
      none,
    );
    expect(plan.args[0]).toEqual({
      name: /^ab.c/i,
      at: { $gte: new Date('2025-01-01T00:00:00Z'), $lt: new Date('2025-02-01') },
      n: -5,
      x: null,
      tags: { $in: ['a', 'b'] },
    });
  });
});

describe('parseMongoQuery: validation', () => {
  it.each([
    ["collection('o').deleteMany({})", 'deleteMany'],
    ["collection('o').find().forEach(printjson)", 'forEach'],
    ["db.dropDatabase()", 'dropDatabase'],
    ["collection('o').insertOne({ a: 1 })", 'insertOne'],
    ["collection('o').aggregate([{ $match: {} }, { $out: 'copy' }])", '$out'],
    ["collection('o').aggregate([{ $facet: { a: [{ $merge: { into: 'x' } }] } }])", '$merge'],
    ["collection('o').find({ $where: 'this.a > 1' })", '$where'],
    ["collection('o').find({ a: function () { return 1 } })", 'function'],
    ["collection('o').find({ a: () => 1 })", 'function'],
    ["collection('o').find({ a: process.env.SECRET })", 'MemberExpression'],
    ["collection('o').find({ a: x })", 'identifier "x"'],
    ["collection('o').find({ [k]: 1 })", 'computed keys'],
    ["collection('o').find({ ...other })", 'spread syntax'],
    ["collection('o').find({ a: 1 + 1 })", 'operator "+"'],
    ["collection('o').find({ a: `${x}` })", 'template string'],
    ["collection('o').find({ a: require('fs') })", 'require()'],
    ["collection('o')['find']({})", 'computed member access'],
    ["collection('o').find({}); collection('o').drop()", 'exactly one'],
    ["collection('o').find({}, { writeConcern: {} })", 'writeConcern'],
    ["collection('o').countDocuments().limit(1)", 'cannot follow'],
    ["collection('o').find({a: 1}", 'Unexpected token'],
    ["this.constructor.constructor('return process')()", 'must start with'],
    ["collection('o').find({ a: ObjectId('zzz') })", 'ObjectId()'],
    ["collection('o').find({ a: new Date('not a date') })", 'not a valid date'],
    ["collection('o').find({ a: 10n })", 'BigInt'],
    ["collection('o').limit(5)", 'limit'],
  ])('refuses %s, naming %s', (query, named) => {
    expect(() => parseMongoQuery(query)).toThrowError(
      expect.objectContaining({ statusCode: 400, code: 'INVALID_QUERY', message: expect.stringContaining(named) }),
    );
  });
});

describe('parseMongoQuery: variables', () => {
  const vars = resolveVariables({
    bindings: [
      { name: 'status', type: 'string', default_value: 'paid' },
      { name: 'min', type: 'number', default_value: '10' },
      { name: 'active', type: 'boolean', default_value: 'true' },
      { name: 'from', type: 'date', default_value: '2025-01-01' },
      { name: 'id', type: 'string', default_value: '64b7f0c2a1b2c3d4e5f60718' },
      { name: 'n', type: 'number', default_value: '20' },
    ],
    runtime: { q: 'a.b*' },
  });

  it('puts typed values where a string is exactly {{name}}', () => {
    const plan = compileMongoQuery(
      "collection('o').find({ status: '{{status}}', total: { $gte: '{{min}}' }, active: '{{active}}', at: { $gte: '{{from}}' } }).limit('{{n}}')",
      vars,
    );
    expect(plan.args[0]).toEqual({ status: 'paid', total: { $gte: 10 }, active: true, at: { $gte: new Date('2025-01-01T00:00:00Z') } });
    expect(plan.steps).toEqual([{ method: 'limit', args: [20] }]);
  });

  it('fills placeholders inside longer strings as text, regex-escaped in regexes', () => {
    const plan = compileMongoQuery("collection('o').find({ label: 'status: {{status}}', name: /^{{q}}/i, _id: ObjectId('{{id}}'), at: new Date('{{from}}') })", vars);
    expect(plan.args[0]).toEqual({
      label: 'status: paid',
      name: /^a\.b\*/i,
      _id: new ObjectId('64b7f0c2a1b2c3d4e5f60718'),
      at: new Date('2025-01-01T00:00:00Z'),
    });
  });

  it.each(["x' OR '1'='1", "'; DROP TABLE t; --", '{"$ne": null}', '../', '%0d%0a', "'), db.dropDatabase(), ('"])(
    'keeps the injection attempt %j a plain string value',
    (value) => {
      const scoped = resolveVariables({ runtime: { v: value } });
      const plan = compileMongoQuery("collection('users').find({ name: '{{v}}', note: 'x {{v}}' })", scoped);
      expect(plan).toEqual({ collection: 'users', method: 'find', args: [{ name: value, note: `x ${value}` }], steps: [] });
    },
  );

  it('cannot make an operator out of a value, nor a key out of a variable', () => {
    expect(() => parseMongoQuery("collection('o').find({ '{{field}}': 1 })")).toThrowError(expect.objectContaining({ code: 'INVALID_QUERY' }));
    expect(() => parseMongoQuery("collection('{{c}}').find({})")).toThrowError(expect.objectContaining({ code: 'INVALID_QUERY' }));
  });

  it('rejects values that do not fit where they go', () => {
    const bad = resolveVariables({ runtime: { id: 'nope', n: '-1' } });
    expect(() => compileMongoQuery("collection('o').find({ _id: ObjectId('{{id}}') })", bad)).toThrowError(expect.objectContaining({ code: 'VARIABLE_INVALID' }));
    expect(() => compileMongoQuery("collection('o').find({}).limit('{{n}}')", bad)).toThrowError(expect.objectContaining({ code: 'INVALID_QUERY' }));
    expect(() => compileMongoQuery("collection('o').find({ a: '{{missing}}' })", bad)).toThrowError(expect.objectContaining({ code: 'VARIABLE_UNKNOWN' }));
  });
});

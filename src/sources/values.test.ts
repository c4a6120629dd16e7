import { describe, expect, it } from 'vitest';
import { encodeDsnCredentials, parseDsn } from './dsn.js';
import { effectiveSslMode, postgresTarget, tlsOptions } from './postgres/connection-config.js';
import { redactSecrets } from './redact.js';
import { inferColumns, naiveTimestampToIso, parseBigInteger, parseDecimal, zonedTimestampToIso } from './values.js';

describe('value normalization', () => {
  it('parses decimals and big integers', () => {
    expect(parseDecimal('12.50')).toBe(12.5);
    expect(parseDecimal('-0.3333333333333333333333')).toBeCloseTo(-1 / 3);
    expect(parseDecimal('123456789012345.67')).toBe(123456789012345.67);
    expect(parseDecimal('1234567890123456.7')).toBe('1234567890123456.7');
    expect(parseDecimal('NaN')).toBe('NaN');
    expect(parseBigInteger('9007199254740991')).toBe(9007199254740991);
    expect(parseBigInteger('9007199254740993')).toBe('9007199254740993');
  });

  it('writes timestamps as ISO 8601', () => {
    expect(zonedTimestampToIso('2025-01-01 10:00:00+00')).toBe('2025-01-01T10:00:00Z');
    expect(zonedTimestampToIso('2025-01-01 10:00:00.5+00')).toBe('2025-01-01T10:00:00.5Z');
    expect(zonedTimestampToIso('2025-01-01 10:00:00+02')).toBe('2025-01-01T08:00:00.000Z');
    expect(zonedTimestampToIso('2025-01-01 10:00:00-03:30')).toBe('2025-01-01T13:30:00.000Z');
    expect(zonedTimestampToIso('infinity')).toBe('infinity');
    expect(naiveTimestampToIso('2025-01-01 10:00:00')).toBe('2025-01-01T10:00:00');
  });
});

describe('inferColumns', () => {
  it('types the keys of schemaless rows from their first non-null value', () => {
    expect(inferColumns([{ a: null, b: 'x', c: '2025-01-01T00:00:00Z' }, { a: 2, d: { e: 1 }, f: true }])).toEqual([
      { name: 'a', type: 'number' },
      { name: 'b', type: 'string' },
      { name: 'c', type: 'date' },
      { name: 'd', type: 'json' },
      { name: 'f', type: 'boolean' },
    ]);
    expect(inferColumns(['a', 1])).toEqual([]);
  });
});

describe('parseDsn', () => {
  it('reads an unencoded password up to the last @', () => {
    expect(parseDsn('postgres://user:p@ss:w/rd@db.example.com:6543/shop?sslmode=require')).toMatchObject({
      scheme: 'postgres',
      user: 'user',
      password: 'p@ss:w/rd',
      host: 'db.example.com',
      port: '6543',
      database: 'shop',
    });
    expect(parseDsn('postgresql://u%40x:p%23@[::1]/db')).toMatchObject({ user: 'u@x', password: 'p#', host: '::1', database: 'db' });
    expect(parseDsn('not a dsn')).toBeUndefined();
    expect(encodeDsnCredentials('mongodb://a:b@c@h/db')).toBe('mongodb://a:b%40c@h/db');
  });
});

describe('postgres TLS settings', () => {
  it('derives the mode from ssl, sslMode and the DSN', () => {
    expect(effectiveSslMode({ type: 'postgres' }, undefined)).toBe('disable');
    expect(effectiveSslMode({ type: 'postgres', ssl: true }, undefined)).toBe('require');
    expect(effectiveSslMode({ type: 'postgres', ssl: false, sslMode: 'verify-full' }, undefined)).toBe('disable');
    expect(effectiveSslMode({ type: 'postgres', ssl: false }, 'verify-ca')).toBe('verify-ca');
    expect(() => effectiveSslMode({ type: 'postgres' }, 'bogus')).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });

  it('maps each mode to TLS options (libpq meanings)', () => {
    const pem = { type: 'postgres', sslCa: 'CA', sslCert: 'CERT', sslKey: 'KEY' };
    expect(tlsOptions('require', { type: 'postgres' })).toEqual({ rejectUnauthorized: false });
    expect(tlsOptions('prefer', { type: 'postgres' })).toEqual({ rejectUnauthorized: false });
    const requireWithCa = tlsOptions('require', pem);
    expect(requireWithCa).toMatchObject({ ca: 'CA', cert: 'CERT', key: 'KEY', rejectUnauthorized: true });
    expect(requireWithCa.checkServerIdentity?.('h', {} as never)).toBeUndefined();
    expect(tlsOptions('verify-ca', pem).checkServerIdentity).toBeTypeOf('function');
    expect(tlsOptions('verify-full', pem)).toEqual({ ca: 'CA', cert: 'CERT', key: 'KEY', rejectUnauthorized: true });
  });

  it('reads fields or a connection string', () => {
    expect(postgresTarget({ type: 'postgres', host: 'h', port: '6432', dbName: 'd', username: 'u', password: 'p' })).toMatchObject({
      host: 'h',
      port: 6432,
      database: 'd',
      user: 'u',
      password: 'p',
      sslMode: 'disable',
    });
    expect(postgresTarget({ type: 'postgres', connectionString: 'postgres://u:p@h/d?sslmode=verify-full', ssl: false })).toMatchObject({
      host: 'h',
      port: 5432,
      sslMode: 'verify-full',
    });
    expect(() => postgresTarget({ type: 'postgres', port: 'abc' })).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(() => postgresTarget({ type: 'postgres', connectionString: 'mysql://x' })).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});

describe('redactSecrets', () => {
  it('masks the connection secrets and URL passwords', () => {
    const conn = { type: 'postgres', password: 'hunter2-long', authentication: { type: 'bearer_token' as const, token: 'tok_abcdef' } };
    expect(redactSecrets('failed for postgres://bob:hunter2-long@db/x with tok_abcdef', conn)).toBe('failed for postgres://bob:********@db/x with ********');
  });
});

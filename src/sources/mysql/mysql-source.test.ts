import { describe, expect, it } from 'vitest';
import { mysqlSsl, mysqlTarget } from './connection-config.js';
import { assertReadingStatement } from './mysql-source.js';

describe('assertReadingStatement', () => {
  it.each(['select 1', '  SELECT 1', 'with x as (select 1) select * from x', 'show tables', 'describe t', 'explain select 1', '(select 1) union (select 2)', '/* c */ -- x\n select 1', '# note\nselect 1'])(
    'lets %j run',
    (sql) => expect(() => assertReadingStatement(sql)).not.toThrow(),
  );

  it.each([
    ['drop table t', 'reading statements'],
    ['create table t (a int)', 'reading statements'],
    ['/* select */ truncate t', 'reading statements'],
    ['set session sql_mode = ""', 'reading statements'],
    ['/*! drop table t */ select 1', 'executable comments'],
    ['select 1 /*M!100000 , sleep(1) */', 'executable comments'],
    ["select * from t into outfile '/tmp/x'", 'OUTFILE'],
    ['select * from t into   dumpfile "/tmp/x"', 'OUTFILE'],
  ])('refuses %j', (sql, named) => {
    expect(() => assertReadingStatement(sql)).toThrowError(expect.objectContaining({ code: 'INVALID_QUERY', message: expect.stringContaining(named) }));
  });
});

describe('mysql connection settings', () => {
  it('reads fields or a DSN, with MySQL ssl-mode names', () => {
    expect(mysqlTarget({ type: 'mysql', host: 'db', port: '3307', dbName: 'shop', username: 'u', password: 'p' })).toMatchObject({
      host: 'db',
      port: 3307,
      database: 'shop',
      user: 'u',
      password: 'p',
      sslMode: 'disable',
      ssl: undefined,
    });
    expect(mysqlTarget({ type: 'mysql', connectionString: 'mysql://u:p@ss@db:3306/shop?ssl-mode=VERIFY_IDENTITY', sslCa: 'CA' })).toMatchObject({
      password: 'p@ss',
      sslMode: 'verify-full',
      ssl: { ca: 'CA', rejectUnauthorized: true, verifyIdentity: true },
    });
  });

  it('maps every sslMode', () => {
    const conn = { type: 'mysql', sslCa: 'CA', sslCert: 'CERT', sslKey: 'KEY' };
    expect(mysqlSsl('disable', conn)).toBeUndefined();
    expect(mysqlSsl('prefer', { type: 'mysql' })).toEqual({ rejectUnauthorized: false, verifyIdentity: false });
    expect(mysqlSsl('require', { type: 'mysql' })).toEqual({ rejectUnauthorized: false, verifyIdentity: false });
    expect(mysqlSsl('verify-ca', conn)).toEqual({ rejectUnauthorized: true, verifyIdentity: false, ca: 'CA', cert: 'CERT', key: 'KEY' });
    expect(mysqlSsl('verify-full', conn)).toMatchObject({ rejectUnauthorized: true, verifyIdentity: true });
  });
});

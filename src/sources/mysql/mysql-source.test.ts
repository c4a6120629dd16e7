import { describe, expect, it } from 'vitest';
import { mysqlSsl, mysqlTarget } from './connection-config.js';

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

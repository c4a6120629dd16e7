import { describe, expect, it } from 'vitest';
import { MYSQL_READS, MYSQL_REFUSED, POSTGRES_READS, POSTGRES_REFUSED } from '../../../test/helpers/statement-safety-cases.js';
import { assertReadOnlyStatement } from './index.js';

const FILE = '/tmp/plotline-never-written';

describe.each([
  ['postgres', POSTGRES_READS, POSTGRES_REFUSED],
  ['mysql', MYSQL_READS, MYSQL_REFUSED],
] as const)('assertReadOnlyStatement (%s)', (dialect, reads, refused) => {
  it('holds at least 60 statements', () => {
    expect(reads.length + refused.length).toBeGreaterThanOrEqual(60);
  });

  it.each(reads)('lets %j run', async (sql) => {
    await expect(assertReadOnlyStatement(sql, dialect)).resolves.toBeUndefined();
  });

  it.each(refused)('refuses %j', async (sql, named) => {
    await expect(assertReadOnlyStatement(sql.replaceAll('__FILE__', FILE), dialect)).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_QUERY',
      message: expect.stringContaining(named),
    });
  });
});

describe('parameters', () => {
  it('parses compiled Postgres parameters as parameters', async () => {
    await expect(assertReadOnlyStatement('select * from guard where id = $1 and note like $2', 'postgres')).resolves.toBeUndefined();
    await expect(assertReadOnlyStatement("select pg_read_file($1)", 'postgres')).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('parses compiled MySQL parameters as parameters', async () => {
    await expect(assertReadOnlyStatement('select * from guard where id = ? and note like ? limit ?', 'mysql')).resolves.toBeUndefined();
    await expect(assertReadOnlyStatement('select load_file(?)', 'mysql')).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });
});

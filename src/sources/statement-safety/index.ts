/**
 * The statement check every SQL run goes through before it reaches the database: one reading
 * statement, nothing that writes, reads server files, waits or administers the server. It is
 * given the text as it will be sent (after `{{variables}}` became driver parameters), so a
 * parameter is parsed as a parameter. See docs/security.md, "What a saved query may do".
 */
import { assertReadOnlyMysql } from './mysql.js';
import { assertReadOnlyPostgres } from './postgres.js';

export type StatementDialect = 'postgres' | 'mysql';

/** Resolves when `sql` is one reading statement; rejects with a 400 INVALID_QUERY naming what was refused. */
export async function assertReadOnlyStatement(sql: string, dialect: StatementDialect): Promise<void> {
  return dialect === 'postgres' ? assertReadOnlyPostgres(sql) : assertReadOnlyMysql(sql);
}

/**
 * The index just past the closing `quote` of a quoted SQL string or identifier that opens at
 * `start` (a doubled quote is an escaped quote; with `backslashes`, so is `\x`), or -1 when it is
 * never closed. Shared by the variable compiler and the MySQL statement check, which each report
 * an unterminated quote in their own words.
 */
export function quotedEnd(sql: string, start: number, quote: string, backslashes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i]!;
    if (backslashes && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return -1;
}

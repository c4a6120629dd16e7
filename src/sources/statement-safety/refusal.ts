import { InvalidQueryError } from '../errors.js';

/** A statement the check refuses: a 400 INVALID_QUERY naming what was refused. */
export function refuse(what: string): InvalidQueryError {
  return new InvalidQueryError(`Only a single reading statement can be run: ${what}`);
}

/**
 * The check's parser could not read the statement, so it cannot be shown to be read-only: refused.
 * That parser is not the server's own grammar, so this is a syntax error or syntax it does not know:
 * said first as a syntax error, since that is what it most often is.
 */
export function unverifiable(dialect: string, complaint: string): InvalidQueryError {
  return new InvalidQueryError(
    `The SQL query has a syntax error, or syntax the read-only check cannot read, so it could not be verified as read-only: the ${dialect} parser says: ${complaint}`,
  );
}

/**
 * The server's own parser (libpg-query is PostgreSQL's grammar) could not read the statement: a
 * syntax error, said as one; it is refused before anything reaches the database all the same.
 */
export function syntaxError(dialect: string, complaint: string): InvalidQueryError {
  return new InvalidQueryError(`The SQL query has a syntax error (${dialect} parser): ${complaint}`);
}

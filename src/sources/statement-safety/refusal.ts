import { InvalidQueryError } from '../errors.js';

/** A statement the check refuses: a 400 INVALID_QUERY naming what was refused. */
export function refuse(what: string): InvalidQueryError {
  return new InvalidQueryError(`Only a single reading statement can be run: ${what}`);
}

/** The parser could not read the statement, so it cannot be shown to be read-only: refused. */
export function unverifiable(dialect: string, complaint: string): InvalidQueryError {
  return new InvalidQueryError(`The statement could not be verified as read-only: the ${dialect} parser says: ${complaint}`);
}

import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/index.js';
import { RunAbortedError, SourceQueryError, SourceTimeoutError, SourceUnreachableError } from '../../sources/errors.js';
import { publicChartError } from './sharing-errors.js';

describe('publicChartError: what a link viewer learns of a failed chart run', () => {
  it.each([
    ['a variable value of the wrong type', new AppError(400, 'VARIABLE_INVALID', 'Variable "ids" item 2 must be a number'), 400, 'CHART_VARIABLES_INVALID'],
    ['a required variable without a value', new AppError(400, 'VARIABLE_REQUIRED', 'Variable "country" needs a value'), 400, 'CHART_VARIABLES_INVALID'],
    ['a query the source refuses', new SourceQueryError('relation "no_such_table" does not exist'), 502, 'CHART_QUERY_FAILED'],
    ['a chart setting that cannot be computed', new AppError(400, 'INVALID_CHART_CONFIG', 'xAxis is missing'), 502, 'CHART_QUERY_FAILED'],
    ['a source that is down', new SourceUnreachableError('connect ECONNREFUSED 10.0.0.5:5432'), 502, 'CHART_UNAVAILABLE'],
    ['a source that is slow', new SourceTimeoutError(30_000), 502, 'CHART_UNAVAILABLE'],
    ['a viewer who went away', new RunAbortedError(), 502, 'CHART_UNAVAILABLE'],
    ['anything else', new Error('boom'), 502, 'CHART_UNAVAILABLE'],
  ])('%s', (_what, cause, status, code) => {
    const error = publicChartError(cause);
    expect(error.statusCode).toBe(status);
    expect(error.code).toBe(code);
    // Never the source's words: they may name tables, hosts or values.
    expect(error.message).not.toContain(cause instanceof Error ? cause.message : String(cause));
  });
});

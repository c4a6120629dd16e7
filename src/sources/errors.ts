import { AppError, type ErrorDetail } from '../errors/index.js';

/**
 * Errors raised by data sources. Driver errors are translated once, here in the source layer,
 * into these typed errors; callers branch on `code`, never on the message.
 */

/** The source answered, but with an error (bad SQL, auth refused, HTTP 4xx/5xx, …). */
export class SourceQueryError extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 'SOURCE_QUERY_FAILED', message, details);
  }
}

/** The source could not be reached at all (DNS, refused, TLS, connection dropped). */
export class SourceUnreachableError extends AppError {
  constructor(message: string) {
    super(502, 'SOURCE_UNREACHABLE', message);
  }
}

/** The run went over its time limit; the query has been cancelled on the source. */
export class SourceTimeoutError extends AppError {
  constructor(timeoutMs: number) {
    super(504, 'SOURCE_TIMEOUT', `The data source did not answer within ${timeoutMs} ms; the query was cancelled`);
  }
}

/** The caller gave up (its signal was aborted) before the source answered. */
export class RunAbortedError extends AppError {
  constructor() {
    super(499, 'RUN_ABORTED', 'The run was aborted before the data source answered');
  }
}

/** A single upstream response was larger than the configured cap. */
export class SourceResponseTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(502, 'SOURCE_RESPONSE_TOO_LARGE', `The data source response is larger than ${limitBytes} bytes`);
  }
}

/** The query text is refused before it reaches the source (parse error, write method, …). */
export class InvalidQueryError extends AppError {
  constructor(message: string, path = 'query') {
    super(400, 'INVALID_QUERY', message, [{ path, message }]);
  }
}

/** An HTTP target (or a redirect hop) that the outbound address policy refuses. */
export class TargetNotAllowedError extends AppError {
  constructor(
    message: string,
    readonly reason: 'invalid_url' | 'invalid_scheme' | 'metadata_endpoint' | 'private_network',
  ) {
    super(400, 'TARGET_NOT_ALLOWED', message, [{ path: 'url', message: reason }]);
  }
}

export class UnsupportedSourceError extends AppError {
  constructor(type: string) {
    super(400, 'SOURCE_TYPE_UNSUPPORTED', `Connections of type "${type}" are not supported`, [{ path: 'type', message: 'unsupported' }]);
  }
}

/**
 * A source whose driver package cannot be loaded (it is loaded on the first use of its type, not
 * at boot): the install is incomplete. The cause stays in the log, not in the answer.
 */
export class SourceDriverUnavailableError extends AppError {
  constructor(
    sourceName: string,
    packages: readonly string[],
    override readonly cause?: unknown,
  ) {
    const what = packages.length > 0 ? `its driver (npm package ${packages.map((name) => `"${name}"`).join(' and ')})` : 'its module';
    super(500, 'SOURCE_DRIVER_UNAVAILABLE', `The ${sourceName} source is unavailable: ${what} could not be loaded; reinstall the service's dependencies (npm install)`);
  }
}

/** A binding marked `required` has no runtime, configured or default value. */
export class VariableRequiredError extends AppError {
  constructor(name: string) {
    super(400, 'VARIABLE_REQUIRED', `Required variable "${name}" has no value and no default value`, [
      { path: `variables.${name}`, message: 'is required' },
    ]);
  }
}

/** A `{{placeholder}}` with neither a binding nor a value. */
export class UnknownVariableError extends AppError {
  constructor(name: string) {
    super(400, 'VARIABLE_UNKNOWN', `Unknown variable "{{${name}}}": it has no binding and no value`, [
      { path: `variables.${name}`, message: 'is not bound' },
    ]);
  }
}

/** A value that does not fit its binding's type, or that cannot be used where it is placed. */
export class InvalidVariableError extends AppError {
  constructor(name: string, message: string) {
    super(400, 'VARIABLE_INVALID', `Variable "${name}" ${message}`, [{ path: `variables.${name}`, message }]);
  }
}

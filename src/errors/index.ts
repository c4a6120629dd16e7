/**
 * The one error family. Services throw these; the error handler in platform/ renders them as
 * `{error, code, details?}`. Code branches on `code`, never on the message text.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 'VALIDATION_FAILED', message, details);
  }

  /** One invalid field, named in both the message and the details. */
  static field(path: string, message: string): ValidationError {
    return new ValidationError(`${path} ${message}`, [{ path, message }]);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, code = 'BAD_REQUEST') {
    super(400, code, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required', code = 'UNAUTHORIZED') {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have access to this resource', code = 'FORBIDDEN') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(what = 'Resource') {
    super(404, 'NOT_FOUND', `${what} not found`);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'CONFLICT') {
    super(409, code, message);
  }
}

/** What a link pointed at is no longer usable (an invitation used, revoked or expired). */
export class GoneError extends AppError {
  constructor(message: string, code: string) {
    super(410, code, message);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', `Too many requests; retry in ${retryAfterSeconds} s`, undefined, {
      'retry-after': String(retryAfterSeconds),
    });
  }
}

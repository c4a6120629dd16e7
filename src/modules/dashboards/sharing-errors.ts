import { AppError } from '../../errors/index.js';

/**
 * Stable codes of the public share surfaces. The report and embed pages branch on them to tell a
 * person what happened (expired, revoked, wrong password…), so they never change meaning.
 */
const SHARE_CODES = {
  /** The entity is not public and no token was sent. */
  tokenRequired: 'SHARE_TOKEN_REQUIRED',
  /** Bad signature or algorithm, malformed, or issued for another dashboard or chart. */
  tokenInvalid: 'SHARE_TOKEN_INVALID',
  /** The token's own `exp` has passed. */
  tokenExpired: 'SHARE_TOKEN_EXPIRED',
  /** The policy was revoked after the token was issued (its revision, and token_version, moved on). */
  tokenRevoked: 'SHARE_TOKEN_REVOKED',
  /** The policy the token names no longer exists. */
  policyDeleted: 'SHARE_POLICY_DELETED',
  /** The policy's `expires_at` has passed. */
  policyExpired: 'SHARE_POLICY_EXPIRED',
  /** The policy is disabled (403). */
  policyDisabled: 'SHARE_POLICY_DISABLED',
  passwordRequired: 'PASSWORD_REQUIRED',
  passwordInvalid: 'PASSWORD_INVALID',
  /** The team does not allow exports from shared reports (403). */
  exportNotAllowed: 'EXPORT_NOT_ALLOWED',
} as const;

export type ShareCode = (typeof SHARE_CODES)[keyof typeof SHARE_CODES];

export class ShareAccessError extends AppError {
  constructor(status: 401 | 403, code: ShareCode, message: string) {
    super(status, code, message);
  }
}

export const shareErrors = {
  tokenRequired: () => new ShareAccessError(401, SHARE_CODES.tokenRequired, 'This link needs a share token (?token=…)'),
  tokenInvalid: () => new ShareAccessError(401, SHARE_CODES.tokenInvalid, 'The share token is not valid for this link'),
  tokenExpired: () => new ShareAccessError(401, SHARE_CODES.tokenExpired, 'The share token has expired'),
  tokenRevoked: () => new ShareAccessError(401, SHARE_CODES.tokenRevoked, 'The share token has been revoked'),
  policyDeleted: () => new ShareAccessError(401, SHARE_CODES.policyDeleted, 'This share link has been removed'),
  policyExpired: () => new ShareAccessError(401, SHARE_CODES.policyExpired, 'This share link has expired'),
  policyDisabled: () => new ShareAccessError(403, SHARE_CODES.policyDisabled, 'Sharing is disabled for this link'),
  passwordRequired: () => new ShareAccessError(403, SHARE_CODES.passwordRequired, 'This dashboard is protected by a password; send it in the "pass" header'),
  passwordInvalid: () => new ShareAccessError(403, SHARE_CODES.passwordInvalid, 'The password is not correct'),
  exportNotAllowed: () => new ShareAccessError(403, SHARE_CODES.exportNotAllowed, 'This team does not allow exports from shared reports (team setting allowReportExport)'),
  /** A chart of a link that cannot be drawn with the link's parameters (a value fails its variable's type, or one it needs is missing). */
  chartVariablesInvalid: () => new AppError(400, 'CHART_VARIABLES_INVALID', "This chart cannot be drawn with the link's parameters"),
  /** A viewer tried to give a param the share policy pins another value (URL, variables or a variable filter). */
  paramLocked: (path: string, name: string) =>
    new AppError(403, 'SHARE_PARAM_LOCKED', `${path}: ${name} is set by the share link and cannot be changed`, [{ path, message: `${name} is set by the share link and cannot be changed` }]),
  /** A filter state a viewer of a report may not send (not one of its filters, or more than a value). */
  filterNotAllowed: (path: string, message: string) => new AppError(400, 'FILTER_NOT_ALLOWED', `${path} ${message}`, [{ path, message }]),
  /** A chart of a link whose run failed (source down, timed out…); the saved data is never shown instead. */
  chartUnavailable: () => new AppError(502, 'CHART_UNAVAILABLE', 'This chart could not be computed right now'),
  /** A chart of a link whose own query or settings fail (its owner has to correct them), whatever the viewer sends. */
  chartQueryFailed: () => new AppError(502, 'CHART_QUERY_FAILED', "This chart's query fails; its owner has to correct it"),
};

/**
 * What a link's viewer learns of a chart run that failed: the kind of failure, never the source's
 * words (they may name tables, hosts or values). A variable's value is the viewer's doing; a
 * query or setting the source refuses is the owner's; anything else is the moment's.
 */
export function publicChartError(cause: unknown): AppError {
  // 499: the viewer went away before the source answered, nothing the owner can mend.
  if (!(cause instanceof AppError) || cause.statusCode >= 499) return shareErrors.chartUnavailable();
  return cause.code.startsWith('VARIABLE_') ? shareErrors.chartVariablesInvalid() : shareErrors.chartQueryFailed();
}

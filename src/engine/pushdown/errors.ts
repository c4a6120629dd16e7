import { AppError } from '../../errors/index.js';

/** Raised while planning when something has no exact SQL equivalent; becomes the eligibility reason. */
export class Unsupported extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'Unsupported';
  }
}

/**
 * `buildPushdownPlan` was called for a configuration that `canPushDown` rejects. A bug in the
 * caller (check eligibility first), hence a 500.
 */
export class PushdownIneligibleError extends AppError {
  constructor(readonly reason: string) {
    super(500, 'PUSHDOWN_INELIGIBLE', `This chart dataset cannot be pushed down: ${reason}`);
  }
}

/**
 * The grouped rows show that this run cannot be answered exactly by the database (rows the engine
 * reads differently, dates outside the zone table, sums that would round differently). The caller
 * runs the streaming engine instead; it never reaches a client unless that step is missing.
 */
export class PushdownFallbackError extends AppError {
  constructor(readonly reason: string) {
    super(500, 'PUSHDOWN_FALLBACK', `The pushed-down query cannot answer this run exactly: ${reason}`);
  }
}

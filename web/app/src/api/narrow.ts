import type { Condition, Join } from './types';

/*
 * Parts of answers that the API's schema leaves open (`unknown`): checked here before a screen
 * relies on their shape, instead of asserted.
 */

type Row = Record<string, unknown>;

const isRecord = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The rows of a run's `data` (an array of objects; anything else has no rows to show). */
export function rowsOf(data: unknown): Row[] {
  return Array.isArray(data) ? data.filter(isRecord) : [];
}

const JOIN_TYPES: readonly unknown[] = ['left', 'inner', null, undefined];

function isJoin(value: unknown): value is Join {
  return (
    isRecord(value) &&
    typeof value['dr_id'] === 'number' &&
    typeof value['join_id'] === 'number' &&
    typeof value['dr_field'] === 'string' &&
    typeof value['join_field'] === 'string' &&
    (value['alias'] === undefined || value['alias'] === null || typeof value['alias'] === 'string') &&
    JOIN_TYPES.includes(value['type'])
  );
}

/** A dataset's joins (`joinSettings.joins`), as the dataset update takes them. */
export function joinsOf(joins: unknown[]): Join[] {
  return joins.filter(isJoin);
}

/** The operators a condition may use, as the chart editor offers them. */
export const CONDITION_OPERATORS: readonly NonNullable<Condition['operator']>[] = ['is', 'isNot', 'contains', 'notContains', 'greaterThan', 'greaterOrEqual', 'lessThan', 'lessOrEqual', 'isNull', 'isNotNull'];

const isOptional = (value: unknown, type: 'string' | 'boolean') => value === undefined || typeof value === type;
const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

function isCondition(value: unknown): value is Condition {
  return (
    isRecord(value) &&
    isOptional(value['id'], 'string') &&
    isOptional(value['field'], 'string') &&
    (value['operator'] === undefined || (CONDITION_OPERATORS as readonly unknown[]).includes(value['operator'])) &&
    (value['value'] === undefined || isScalar(value['value'])) &&
    isOptional(value['displayValues'], 'boolean') &&
    isOptional(value['exposed'], 'boolean') &&
    (value['items'] === undefined || (Array.isArray(value['items']) && value['items'].every(isScalar)))
  );
}

/** A chart dataset config's conditions (`conditions`), as the config update takes them. */
export function conditionsOf(conditions: unknown[]): Condition[] {
  return conditions.filter(isCondition);
}

/** A chart's cell on the dashboard grid, `layout.lg` as [x, y, w, h] (the shape other clients write too). */
export function gridCellOf(layout: unknown): [number, number, number, number] | null {
  const lg = isRecord(layout) ? layout['lg'] : undefined;
  if (!Array.isArray(lg) || lg.length !== 4) return null;
  const [x, y, w, h] = lg;
  return typeof x === 'number' && typeof y === 'number' && typeof w === 'number' && typeof h === 'number' ? [x, y, w, h] : null;
}

/** `value` when it is one of `options` (a select's value, an enum the answer types as a string), else undefined. */
export function oneOf<T extends string>(options: readonly T[], value: string | null | undefined): T | undefined {
  return options.find((option) => option === value);
}

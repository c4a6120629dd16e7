/**
 * Row conditions (`{field, operator, value}`), compiled once into predicates.
 *
 * Typed comparison, decided per row value (never from a sample of other rows):
 * - numbers (and numeric strings when the condition value is numeric) compare as numbers; a
 *   number and a value that is neither a number nor a date are not comparable (only isNot holds);
 * - dates (Date values, and ISO-looking strings when the condition value is an ISO date)
 *   compare as instants; a condition value names a span at its own precision: `2025-03-01`
 *   is that whole local day, `2025-03` that month, `2025-03-01T10:00:00Z` one instant. `is` means
 *   inside the span, `greaterThan` after it, `lessOrEqual` before its end, and so on;
 * - booleans compare with `true`/`false` (strings or booleans);
 * - everything else compares as text (code-unit order); `contains` is a case-sensitive substring
 *   test on the text form (dates in ISO form), or membership for array values.
 * A condition's `type` (`number`, `date`, `string`, `boolean`) forces the comparison instead.
 *
 * A missing value (null/undefined) never satisfies is/contains/ordering operators and always
 * satisfies isNot/notContains. `isNull`/`isNotNull` take an optional value `false` that inverts
 * them. A condition whose value is empty is ignored (as is one naming a variable that has no
 * value); a list value means "any of" (`is`) / "none of" (`isNot`).
 * When a field yields several values (a path through an array), positive operators need one
 * matching value, negative ones (isNot, notContains, isNull) need all values to match.
 */
import { DAY_MS, daysFromCivil } from './calendar.js';
import { epochFromNumber, parseDateString, toEpochMs } from './date-value.js';
import { InvalidChartConfigError } from './errors.js';
import { compileFieldPath, normalizeFieldPath } from './field-path.js';
import { CONDITION_OPERATORS, type ChartCondition, type ConditionOperator, type VariableValue } from './types.js';
import { parseNumber, toNumber } from './values.js';
import type { ZoneClock } from './zone-clock.js';

export type ComparisonType = 'string' | 'number' | 'date' | 'boolean';

export interface ResolvedCondition {
  /** Normalised field path (`root[].a` → `a`). */
  field: string;
  operator: ConditionOperator;
  /** The value after variable substitution. */
  value: unknown;
  type: ComparisonType | null;
}

export type ValueTest = (value: unknown) => boolean;

/** Reads a field in the row currently examined (see row-scope.ts for array scopes). */
export interface ConditionReader {
  readonly multi: boolean;
  get(top: unknown, element: unknown): unknown;
  collect(top: unknown, element: unknown, out: unknown[]): void;
}

const NEGATIVE: ReadonlySet<ConditionOperator> = new Set(['isNot', 'notContains', 'isNull']);

export function isNegativeOperator(op: ConditionOperator): boolean {
  return NEGATIVE.has(op);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

const WHOLE_VARIABLE = /^\s*\{\{\s*([^{}\s]+)\s*\}\}\s*$/;
const ANY_VARIABLE = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/**
 * Validates conditions, substitutes `{{name}}` from the dataset configuration's variables and
 * drops the ones that do not apply (empty value, variable without a value).
 */
export function resolveConditions(
  conditions: readonly ChartCondition[] | null | undefined,
  variables: readonly VariableValue[] | null | undefined,
  where = 'conditions',
): ResolvedCondition[] {
  if (!conditions) return [];
  const vars = new Map<string, unknown>();
  for (const v of variables ?? []) {
    if (v && typeof v.name === 'string' && !isEmpty(v.value)) vars.set(v.name, v.value);
  }
  const out: ResolvedCondition[] = [];
  conditions.forEach((c, i) => {
    const at = `${where}[${i}]`;
    if (!c || typeof c.field !== 'string' || c.field.trim() === '') {
      throw new InvalidChartConfigError(`${at}.field`, 'a condition needs a field');
    }
    if (!(CONDITION_OPERATORS as readonly string[]).includes(c.operator)) {
      throw new InvalidChartConfigError(`${at}.operator`, `unknown operator "${String(c.operator)}"`);
    }
    const operator = c.operator as ConditionOperator;
    const type = c.type === undefined || c.type === null || c.type === '' ? null : c.type;
    if (type !== null && type !== 'string' && type !== 'number' && type !== 'date' && type !== 'boolean') {
      throw new InvalidChartConfigError(`${at}.type`, `unknown comparison type "${String(type)}"`);
    }
    let value = c.value;
    if (typeof value === 'string' && value.includes('{{')) {
      const whole = WHOLE_VARIABLE.exec(value);
      if (whole) {
        if (!vars.has(whole[1]!)) return;
        value = vars.get(whole[1]!);
      } else {
        let missing = false;
        value = value.replace(ANY_VARIABLE, (_, name: string) => {
          if (!vars.has(name)) missing = true;
          return String(vars.get(name) ?? '');
        });
        if (missing) return;
      }
    }
    const nullCheck = operator === 'isNull' || operator === 'isNotNull';
    if (!nullCheck && isEmpty(value)) return;
    let field: string;
    try {
      field = normalizeFieldPath(c.field);
    } catch {
      throw new InvalidChartConfigError(`${at}.field`, `invalid field path "${c.field}"`);
    }
    out.push({ field, operator, value, type });
  });
  return out;
}

interface DateSpan {
  start: number;
  end: number;
}

const ISO_DATE_LIKE = /^\d{4}-\d{2}(-\d{2})?([Tt ]\d{2}:\d{2}.*)?$/;

/** The span a date condition value names, in the chart's zone; null when it is not a date. */
export function dateSpanOf(value: unknown, clock: ZoneClock, forced: boolean): DateSpan | null {
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isNaN(t) ? null : { start: t, end: t + 1 };
  }
  if (typeof value === 'number') {
    if (!forced) return null;
    const t = toEpochMs(value, clock);
    return t === t ? { start: t, end: t + 1 } : null;
  }
  if (typeof value !== 'string') return null;
  const s = value.trim();
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(s);
  if (m && (forced || m[2] !== undefined)) {
    const y = Number(m[1]);
    const mo = m[2] === undefined ? null : Number(m[2]);
    const d = m[3] === undefined ? null : Number(m[3]);
    let startDay: number;
    let endDay: number;
    if (mo === null) {
      startDay = daysFromCivil(y, 1, 1);
      endDay = daysFromCivil(y + 1, 1, 1);
    } else if (d === null) {
      startDay = daysFromCivil(y, mo, 1);
      endDay = mo === 12 ? daysFromCivil(y + 1, 1, 1) : daysFromCivil(y, mo + 1, 1);
    } else {
      startDay = daysFromCivil(y, mo, d);
      endDay = startDay + 1;
    }
    const start = parseDateString(s, clock);
    if (start !== start) return null;
    return { start, end: clock.wallToInstant(endDay * DAY_MS) };
  }
  if (!forced && !ISO_DATE_LIKE.test(s)) return null;
  const t = parseDateString(s, clock);
  return t === t ? { start: t, end: t + 1 } : null;
}

function textOf(value: unknown): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function boolOf(value: unknown): boolean | null {
  if (value === true || value === false) return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : null;
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
  }
  return null;
}

function orderTest(op: ConditionOperator, cmp: (v: unknown) => number): ValueTest | null {
  switch (op) {
    case 'is':
      return (v) => cmp(v) === 0;
    case 'isNot':
      return (v) => cmp(v) !== 0;
    case 'greaterThan':
      return (v) => cmp(v) > 0;
    case 'greaterOrEqual':
      return (v) => cmp(v) >= 0;
    case 'lessThan':
      return (v) => cmp(v) < 0;
    case 'lessOrEqual':
      return (v) => cmp(v) <= 0;
    default:
      return null;
  }
}

/** NaN from a comparator means "not comparable": only isNot holds. */
function compareNumbers(a: number, b: number): number {
  return a !== a || b !== b ? NaN : a < b ? -1 : a > b ? 1 : 0;
}

/** Position of instant t relative to a span: -1 before, 0 inside, 1 after. */
function compareToSpan(t: number, span: DateSpan): number {
  return t !== t ? NaN : t < span.start ? -1 : t >= span.end ? 1 : 0;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compiles the test applied to one value of the field (nulls included). */
export function compileValueTest(condition: ResolvedCondition, clock: ZoneClock): ValueTest {
  const { operator: op, value } = condition;
  if (op === 'isNull' || op === 'isNotNull') {
    const inverted = boolOf(value) === false;
    const wantNull = (op === 'isNull') !== inverted;
    return wantNull ? (v) => v === null || v === undefined : (v) => v !== null && v !== undefined;
  }
  if (Array.isArray(value)) {
    const tests = value.map((item) => compileValueTest({ ...condition, value: item }, clock));
    return isNegativeOperator(op) ? (v) => tests.every((t) => t(v)) : (v) => tests.some((t) => t(v));
  }
  const notNullTest = compileSingle(condition, clock);
  // Missing values satisfy only the negative operators.
  const whenMissing = isNegativeOperator(op);
  return (v) => (v === null || v === undefined ? whenMissing : notNullTest(v));
}

function compileSingle(condition: ResolvedCondition, clock: ZoneClock): ValueTest {
  const { operator: op, value, type } = condition;
  const text = textOf(value);
  const containsTest = (haystack: (v: unknown) => string): ValueTest => {
    const hit = (v: unknown): boolean =>
      Array.isArray(v) ? v.some((item) => item !== null && item !== undefined && textOf(item) === text) : haystack(v).includes(text);
    return op === 'contains' ? hit : (v) => !hit(v);
  };

  if (type !== null) {
    if (op === 'contains' || op === 'notContains') return containsTest(textOf);
    let test: ValueTest | null = null;
    if (type === 'number') {
      const n = toNumber(value);
      test = orderTest(op, (v) => compareNumbers(typeof v === 'boolean' ? NaN : toNumber(v), n));
    } else if (type === 'date') {
      const span = dateSpanOf(value, clock, true);
      test = orderTest(op, (v) => (span === null ? NaN : compareToSpan(toEpochMs(v, clock), span)));
    } else if (type === 'boolean') {
      const b = boolOf(value);
      test = orderTest(op, (v) => {
        const x = boolOf(v);
        return x === null || b === null ? NaN : Number(x) - Number(b);
      });
    } else {
      test = orderTest(op, (v) => compareText(textOf(v), text));
    }
    return test!;
  }

  const num = typeof value === 'boolean' ? NaN : toNumber(value);
  const numeric = num === num;
  const span = dateSpanOf(value, clock, false);
  const bool = boolOf(value);

  if (op === 'contains' || op === 'notContains') return containsTest(textOf);

  const cmp = (v: unknown): number => {
    switch (typeof v) {
      case 'number':
        if (numeric) return compareNumbers(v, num);
        // A number against a date is an epoch (seconds or milliseconds, see date-value.ts).
        if (span !== null) return compareToSpan(epochFromNumber(v), span);
        return NaN;
      case 'bigint':
        return numeric ? compareNumbers(Number(v), num) : NaN;
      case 'string': {
        if (numeric) {
          // Against a number, text that is not a number is not comparable (only isNot holds).
          const x = parseNumber(v);
          return x === x ? compareNumbers(x, num) : NaN;
        }
        if (span !== null && ISO_DATE_LIKE.test(v)) {
          const t = parseDateString(v, clock);
          if (t === t) return compareToSpan(t, span);
        }
        return compareText(v, text);
      }
      case 'boolean':
        if (bool === null) return compareText(String(v), text);
        // Booleans are equal or not; they have no order.
        return op === 'is' || op === 'isNot' ? Number(v) - Number(bool) : NaN;
      case 'object':
        if (v instanceof Date) {
          if (span !== null) return compareToSpan(v.getTime(), span);
          if (numeric) return compareNumbers(v.getTime(), toEpochMs(num, clock));
          return compareText(textOf(v), text);
        }
        return compareText(textOf(v), text);
      default:
        return compareText(textOf(v), text);
    }
  };
  return orderTest(op, cmp)!;
}

/** A reader over plain top-level rows (no array scope). */
function topLevelReader(field: string): ConditionReader {
  const accessor = compileFieldPath(field);
  return {
    multi: accessor.multi,
    get: (top) => accessor.get(top),
    collect: (top, _el, out) => accessor.collect(top, out),
  };
}

/**
 * One predicate for all conditions (AND). `reader` says where each field is read from; by
 * default from the top-level row.
 */
export function compilePredicate(
  conditions: readonly ResolvedCondition[],
  clock: ZoneClock,
  reader: (field: string) => ConditionReader = topLevelReader,
): ((top: unknown, element: unknown) => boolean) | null {
  if (conditions.length === 0) return null;
  const checks = conditions.map((c) => {
    const test = compileValueTest(c, clock);
    const read = reader(c.field);
    if (!read.multi) return (top: unknown, el: unknown) => test(read.get(top, el));
    const every = isNegativeOperator(c.operator);
    return (top: unknown, el: unknown) => {
      const values: unknown[] = [];
      read.collect(top, el, values);
      if (values.length === 0) return test(undefined);
      return every ? values.every(test) : values.some(test);
    };
  });
  if (checks.length === 1) return checks[0]!;
  return (top, el) => {
    for (let i = 0; i < checks.length; i += 1) if (!checks[i]!(top, el)) return false;
    return true;
  };
}

/** Convenience for plain rows: resolve, compile and return `row => boolean`. */
export function compileConditions(
  conditions: readonly ChartCondition[],
  clock: ZoneClock,
  variables?: readonly VariableValue[],
): (row: unknown) => boolean {
  const predicate = compilePredicate(resolveConditions(conditions, variables), clock);
  return predicate === null ? () => true : (row) => predicate(row, row);
}

import { compileConditions, CONDITION_OPERATORS, ZoneClock } from '../../engine/index.js';
import type { ChartCondition } from '../../engine/index.js';
import { ValidationError } from '../../errors/index.js';

/** A runtime filter: a field condition, or a date range on the dataset's date field. */
export type RuntimeFilter =
  | { field: string; operator?: string; value?: unknown }
  | { type: 'date'; startDate?: string | null; endDate?: string | null };

const OPERATORS: ReadonlySet<string> = new Set(CONDITION_OPERATORS);

/**
 * `filters` arrives as a JSON string (GET) or a value (POST): an object of `{field: value}`
 * equality filters, or an array of `{field, operator, value}` and `{type: "date", startDate, endDate}`.
 */
export function parseFilters(raw: unknown, path = 'querystring.filters'): RuntimeFilter[] {
  let value = raw;
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw ValidationError.field(path, 'must be JSON: an object of {field: value} or an array of filters');
    }
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      if (!item || typeof item !== 'object') throw ValidationError.field(`${path}.${i}`, 'must be an object');
      const filter = item as Record<string, unknown>;
      if (filter['type'] === 'date') {
        for (const key of ['startDate', 'endDate'] as const) {
          const v = filter[key];
          if (v !== undefined && v !== null && (typeof v !== 'string' || Number.isNaN(Date.parse(v)))) {
            throw ValidationError.field(`${path}.${i}.${key}`, 'must be an ISO 8601 date');
          }
        }
        return { type: 'date', startDate: (filter['startDate'] as string | null) ?? null, endDate: (filter['endDate'] as string | null) ?? null };
      }
      if (typeof filter['field'] !== 'string' || filter['field'] === '') throw ValidationError.field(`${path}.${i}.field`, 'is required');
      const operator = (filter['operator'] as string | undefined) ?? 'is';
      if (!OPERATORS.has(operator)) throw ValidationError.field(`${path}.${i}.operator`, `must be one of ${[...OPERATORS].join(', ')}`);
      return { field: filter['field'], operator, value: filter['value'] };
    });
  }
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).map(([field, v]) => ({ field, operator: 'is', value: v }));
  }
  throw ValidationError.field(path, 'must be an object or an array');
}

/** Field filters plus date ranges (on `dateField`) as engine conditions. */
export function filtersToConditions(filters: readonly RuntimeFilter[], dateField: string | null): ChartCondition[] {
  const conditions: ChartCondition[] = [];
  for (const filter of filters) {
    if ('type' in filter) {
      if (!dateField) continue;
      if (filter.startDate) conditions.push({ field: dateField, operator: 'greaterOrEqual', value: filter.startDate });
      if (filter.endDate) conditions.push({ field: dateField, operator: 'lessOrEqual', value: filter.endDate });
    } else {
      conditions.push({ field: filter.field, operator: filter.operator ?? 'is', value: filter.value });
    }
  }
  return conditions;
}

/** A row predicate for the filters, or null when there is nothing to filter. */
export function filterPredicate(filters: readonly RuntimeFilter[], dateField: string | null, timezone = 'UTC'): ((row: unknown) => boolean) | null {
  const conditions = filtersToConditions(filters, dateField);
  if (conditions.length === 0) return null;
  return compileConditions(conditions, ZoneClock.of(timezone));
}

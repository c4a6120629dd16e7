import { OPERATOR_WORDS, VALUELESS_OPERATORS } from '../../../src/render/card-notes.js';
import type { AnyFilterConfiguration, DatePreset, VariableType } from './types.js';

/*
 * Dashboard filters as the editor and the report page show them: the date presets and their names,
 * how a value reads in words, how a viewer's choice is written into the page address and read back,
 * and how typed text becomes a variable's value. No DOM and no React here: both pages use it.
 */

/** Every preset of the API's schema has a name here (the compiler holds this list to it). */
export const PRESET_LABELS: Record<DatePreset, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  last_7_days: 'Last 7 days',
  last_30_days: 'Last 30 days',
  last_90_days: 'Last 90 days',
  this_week: 'This week',
  last_week: 'Last week',
  this_month: 'This month',
  last_month: 'Last month',
  this_quarter: 'This quarter',
  last_quarter: 'Last quarter',
  this_year: 'This year',
  last_year: 'Last year',
  custom: 'Custom range',
};

function isPreset(key: string): key is DatePreset {
  return Object.hasOwn(PRESET_LABELS, key);
}

/** The date presets the server resolves in the dashboard's timezone (weeks start on Monday), in the order the pages offer them: the labels' order. */
export const DATE_PRESETS: readonly DatePreset[] = Object.keys(PRESET_LABELS).filter(isPreset);

export function presetOf(value: unknown): DatePreset | undefined {
  return DATE_PRESETS.find((preset) => preset === value);
}

/** A date filter's value: a preset, or a custom range of days (either end may be open). */
export interface DateRange {
  preset?: DatePreset | undefined;
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
}

/** `YYYY-MM-DD` of an ISO date or date-time (the day a date input shows), else ''. */
export function dayOf(value: string | null | undefined): string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : '';
}

/** Whether a date filter narrows anything: a preset other than custom, or a custom range with an end. */
export function rangeIsSet(range: DateRange): boolean {
  if (range.preset !== undefined && range.preset !== 'custom') return true;
  return dayOf(range.startDate) !== '' || dayOf(range.endDate) !== '';
}

/** "Last 30 days", "2025-01-01 – 2025-01-31", "from 2025-01-01", or "Any time". */
export function rangeText(range: DateRange): string {
  if (range.preset !== undefined && range.preset !== 'custom') return PRESET_LABELS[range.preset];
  const start = dayOf(range.startDate);
  const end = dayOf(range.endDate);
  if (start !== '' && end !== '') return `${start} – ${end}`;
  if (start !== '') return `from ${start}`;
  if (end !== '') return `until ${end}`;
  return 'Any time';
}

/** The range as one URL value: the preset's name, or `start..end` (an open end left empty). */
export function encodeRange(range: DateRange): string | null {
  if (!rangeIsSet(range)) return null;
  if (range.preset !== undefined && range.preset !== 'custom') return range.preset;
  return `${dayOf(range.startDate)}..${dayOf(range.endDate)}`;
}

/** A URL value back into a range; null when it is neither a preset nor a `start..end` of days. */
export function decodeRange(text: string): DateRange | null {
  const preset = presetOf(text);
  if (preset !== undefined && preset !== 'custom') return { preset };
  const match = /^(\d{4}-\d{2}-\d{2})?\.\.(\d{4}-\d{2}-\d{2})?$/.exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined)) return null;
  return { preset: 'custom', ...(match[1] ? { startDate: match[1] } : {}), ...(match[2] ? { endDate: match[2] } : {}) };
}

/** A dashboard variable's types (the dataset binding's types, lists included), in the order the editor offers them. */
export const VARIABLE_TYPES: readonly VariableType[] = ['string', 'number', 'date', 'boolean', 'string[]', 'number[]', 'date[]', 'boolean[]'];
/** What a person reads for each variable type. */
export const VARIABLE_TYPE_NAMES: Readonly<Record<VariableType, string>> = {
  string: 'Text',
  number: 'Number',
  date: 'Date',
  boolean: 'Yes or no',
  'string[]': 'List of texts',
  'number[]': 'List of numbers',
  'date[]': 'List of dates',
  'boolean[]': 'List of yes or no',
};

export function variableTypeOf(value: unknown): VariableType | undefined {
  return VARIABLE_TYPES.find((type) => type === value);
}

export const isListType = (type: VariableType): boolean => type.endsWith('[]');

/** The input a value of this type is typed into (lists are typed as comma-separated text). */
export function inputTypeOf(type: VariableType): 'text' | 'number' | 'date' {
  return type === 'number' ? 'number' : type === 'date' ? 'date' : 'text';
}

/** A value in words for a chip or a read-only control: lists joined by commas, nothing as ''. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Whether a field or variable filter has a value to apply ('' and [] have none). */
export function hasValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}

/**
 * Typed text into a variable's value: numbers as numbers, booleans as booleans, list types split
 * on commas; '' is no value. Text that does not parse is sent as typed: the server answers
 * `VARIABLE_INVALID` naming the variable, which the page shows.
 */
export function typedValue(type: VariableType, text: string): unknown {
  const one = (part: string): unknown => {
    const item = type.replace('[]', '');
    if (item === 'number' && part !== '' && Number.isFinite(Number(part))) return Number(part);
    if (item === 'boolean' && (part === 'true' || part === 'false')) return part === 'true';
    return part;
  };
  if (isListType(type)) {
    const parts = text
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    return parts.length === 0 ? undefined : parts.map(one);
  }
  return text === '' ? undefined : one(text);
}

/** The prefix of a filter's state in the report's address: `f.<filterId>=…`. */
export const FILTER_PARAM_PREFIX = 'f.';

/** Operators that need no value: a filter using one always applies. */

/** One item of `filters` in a run body (the filter routes), as the server reads it. */
export type RuntimeFilter =
  | { type: 'date'; id: string; preset?: DatePreset; startDate?: string; endDate?: string; charts?: number[] }
  | { type: 'field'; id: string; field: string; operator: string; value: unknown; charts?: number[] }
  | { type: 'variable'; id: string; variable: string; value: unknown };

/** The run state of a filter as configured (its value, or the one being tried); null when it has nothing to apply. */
export function runtimeFilter(id: string, config: AnyFilterConfiguration): RuntimeFilter | null {
  const charts = config.type !== 'variable' && config.charts && config.charts.length > 0 ? { charts: config.charts } : {};
  if (config.type === 'date') {
    if (!rangeIsSet(config)) return null;
    if (config.preset !== undefined && config.preset !== 'custom') return { type: 'date', id, preset: config.preset, ...charts };
    const start = dayOf(config.startDate);
    const end = dayOf(config.endDate);
    return { type: 'date', id, preset: 'custom', ...(start ? { startDate: start } : {}), ...(end ? { endDate: end } : {}), ...charts };
  }
  if (config.type === 'field') {
    if (VALUELESS_OPERATORS.includes(config.operator)) return { type: 'field', id, field: config.field, operator: config.operator, value: hasValue(config.value) ? config.value : true, ...charts };
    return hasValue(config.value) ? { type: 'field', id, field: config.field, operator: config.operator, value: config.value, ...charts } : null;
  }
  return hasValue(config.value) ? { type: 'variable', id, variable: config.variable, value: config.value } : null;
}

/** What a filter is called on the page: its label, else what it filters on. */
export function filterName(config: AnyFilterConfiguration): string {
  if (config.label) return config.label;
  if (config.type === 'date') return 'Date';
  if (config.type === 'field') return config.field.replace(/^root\[\]\./, '');
  return config.variable;
}

/** A filter and its value in words: "Date: Last 30 days", "country is FR", "region: emea". */
export function filterSummary(config: AnyFilterConfiguration): string {
  if (config.type === 'date') return `${filterName(config)}: ${rangeText(config)}`;
  if (config.type === 'field') return `${filterName(config)} ${OPERATOR_WORDS[config.operator] ?? config.operator} ${valueText(config.value)}`.trim();
  return `${filterName(config)}: ${valueText(config.value)}`;
}


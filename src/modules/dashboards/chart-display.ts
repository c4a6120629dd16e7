import { Type, type Static, type TOptional, type TSchema } from 'typebox';

/**
 * A chart's display options: how it is drawn and shown, not what it is computed from. Each one is
 * declared here once, with its type, default and description; the rest follows from this list:
 * the fields of a chart response and of the share pages' public chart, the fields of a create or
 * update body, how their store columns read (src/store/types.ts names the columns; the build fails
 * while one is missing), and the values of a chart a body leaves them out of. The engine reads some of them (docs/chart-data.md), through its own `ChartInput`.
 */

const CHART_MODES = ['chart', 'kpichart'] as const;
const X_LABEL_TICKS = ['default', 'half', 'third', 'fourth', 'showAll'] as const;
const MISSING_VALUES = ['zero', 'preserve'] as const;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Integer columns are Postgres `integer`. */
const Int32 = Type.Integer({ minimum: -2147483648, maximum: 2147483647 });

/**
 * `answer` is how responses declare the stored value; `input` what a body may set (the same type,
 * with its bounds or allowed values). `fallback` is what a chart created without it holds; the
 * migration that adds its column gives existing charts the same.
 */
function option<Answer extends TSchema, Input extends TSchema>(description: string, answer: Answer, input: Input, fallback: Static<Answer>) {
  return { answer: Type.With(answer, { description }), input: Type.With(input, { description }), fallback };
}

const flag = (description: string, fallback: boolean) => option(description, Type.Boolean(), Type.Boolean(), fallback);

// The order is the order of the fields in responses.
const OPTIONS = {
  layout: option(
    'Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns',
    Type.Unknown(),
    Nullable(Type.Object({}, { additionalProperties: true })),
    null,
  ),
  displayLegend: flag('Show the legend', false),
  dataLabels: flag('Write each value on its point or bar (line and bar charts)', false),
  stacked: flag('Stack the series of a bar chart', false),
  stackPercent: flag("Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages", false),
  missingValues: option(
    'A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts',
    Type.Enum([...MISSING_VALUES]),
    Type.Enum([...MISSING_VALUES]),
    'zero',
  ),
  horizontal: flag('Lay the bars of a bar chart horizontally', false),
  showGrowth: flag('Compare the last value with the one before it (`growth` in the chart data)', false),
  invertGrowth: flag('A fall is the good direction: growth statuses swap positive and negative', false),
  isLogarithmic: flag('Logarithmic value axis', false),
  content: option('The text of a markdown chart', Nullable(Type.String()), Nullable(Type.String({ maxLength: 100_000 })), null),
  ranges: option('The bands of a gauge: `[{min, max, label?, color?}]`', Type.Unknown(), Nullable(Type.Array(Type.Unknown(), { maxItems: 100 })), null),
  defaultRowsPerPage: option('Rows per page of a table chart', Nullable(Type.Integer()), Nullable(Type.Integer({ minimum: 1, maximum: 10_000 })), 10),
  maxValue: option('Top of the value axis (of a gauge, when it has no ranges)', Nullable(Type.Integer()), Nullable(Int32), null),
  minValue: option('Bottom of the value axis (of a gauge, when it has no ranges)', Nullable(Type.Integer()), Nullable(Int32), null),
  xLabelTicks: option(
    'Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`)',
    Nullable(Type.String()),
    Nullable(Type.Enum([...X_LABEL_TICKS])),
    'default',
  ),
  pointRadius: option("Radius of the points of a line or radar chart; a dataset config's own radius wins", Nullable(Type.Integer()), Nullable(Type.Integer({ minimum: 0, maximum: 1000 })), null),
  dashedLastPoint: flag('Draw the last segment of a line chart dashed (a period still in progress)', false),
  mode: option("`chart`, or `kpichart` (Chartbrew's KPI view of the chart)", Type.String(), Type.Enum([...CHART_MODES]), 'chart'),
  onReport: flag("Shown on the dashboard's report (its share page)", true),
};

type Options = typeof OPTIONS;
type DisplayKey = keyof Options;

function mapOptions<T>(each: (option: Options[DisplayKey]) => T): Record<DisplayKey, T> {
  return Object.fromEntries(Object.entries(OPTIONS).map(([key, option]) => [key, each(option)])) as Record<DisplayKey, T>;
}

export const CHART_DISPLAY_KEYS = Object.keys(OPTIONS) as DisplayKey[];

/** The display fields of a chart response and of the public chart of the share pages. */
export const ChartDisplay = Type.Object(mapOptions((option) => option.answer) as { [K in DisplayKey]: Options[K]['answer'] });
export type ChartDisplay = Static<typeof ChartDisplay>;

/** The display fields of a create or update body: each optional, the nullable ones cleared with null. */
export const ChartDisplayInput = Type.Object(mapOptions((option) => Type.Optional(option.input)) as { [K in DisplayKey]: TOptional<Options[K]['input']> });

/** What a chart holds for an option its body left out. */
export const CHART_DISPLAY_DEFAULTS = mapOptions((option) => option.fallback) as ChartDisplay;

/**
 * How each option is stored, by the store's portable column kinds (src/store/types.ts): booleans
 * as `bool` (0/1 in SQLite), free values, objects and arrays as `json`, the rest as they are.
 */
export type DisplayColumnKind = 'bool' | 'boolOrNull' | 'json' | 'plain';

function columnKind(schema: TSchema): DisplayColumnKind {
  if (Type.IsBoolean(schema)) return 'bool';
  if (Type.IsUnknown(schema) || Type.IsObject(schema) || Type.IsArray(schema)) return 'json';
  if (Type.IsUnion(schema)) {
    const kinds = schema.anyOf.filter((member) => !Type.IsNull(member)).map(columnKind);
    if (kinds.includes('json')) return 'json';
    if (kinds.includes('bool')) return 'boolOrNull';
  }
  return 'plain';
}

export const CHART_DISPLAY_COLUMNS: readonly { key: DisplayKey; kind: DisplayColumnKind }[] = CHART_DISPLAY_KEYS.map((key) => ({ key, kind: columnKind(OPTIONS[key].answer) }));

/** The display options of a chart, and nothing else of it. */
export function displayOf(chart: ChartDisplay): ChartDisplay {
  const out: Record<string, unknown> = {};
  for (const key of CHART_DISPLAY_KEYS) out[key] = chart[key];
  return out as ChartDisplay;
}

/** `fields` of a new chart, with each display option they leave out or set to null at its default. */
export function withDisplayDefaults<T extends object>(fields: T): T {
  const out = { ...fields } as Record<string, unknown>;
  for (const key of CHART_DISPLAY_KEYS) out[key] ??= CHART_DISPLAY_DEFAULTS[key];
  return out as T;
}

import type { Dataset, FilterConfiguration, FilterReachBody } from './types';

/*
 * What the filter form offers from the dashboard's datasets: the variables they use. Which charts
 * a filter reaches is the server's to say: `filteredBy` of a filtered run, which the cards read,
 * and before any value `POST /project/{id}/filter-reach`, which the form and the bar read.
 */

/** A filter as `filter-reach` reads it: what decides its reach (kind, field, variable, charts), not its value. */
export function reachFilter(id: string, config: FilterConfiguration): FilterReachBody['filters'][number] {
  if (config.type === 'variable') return { type: 'variable', id, variable: config.variable };
  const charts = config.charts && config.charts.length > 0 ? { charts: config.charts } : {};
  if (config.type === 'date') return { type: 'date', id, ...charts };
  return { type: 'field', id, field: config.field, operator: config.operator, ...charts };
}

/** The variables a dataset uses: its bindings, its requests' bindings and the `{{name}}`s of their queries. */
export function variablesOf(dataset: Dataset): Set<string> {
  const names = new Set(dataset.VariableBindings.map((b) => b.name));
  for (const request of dataset.DataRequests) {
    for (const binding of request.VariableBindings) names.add(binding.name);
    for (const match of (request.query ?? '').matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)) names.add(match[1]!);
  }
  return names;
}

/** Every variable the dashboard's datasets use, with the type of its first binding, for the filter form. */
export function knownVariables(datasets: Dataset[]): Map<string, string> {
  const known = new Map<string, string>();
  for (const dataset of datasets) {
    for (const binding of [...dataset.VariableBindings, ...dataset.DataRequests.flatMap((r) => r.VariableBindings)]) if (!known.has(binding.name)) known.set(binding.name, binding.type);
    for (const name of variablesOf(dataset)) if (!known.has(name)) known.set(name, 'string');
  }
  return known;
}

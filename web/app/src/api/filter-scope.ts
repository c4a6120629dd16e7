import type { Chart, Dataset, FilterConfiguration } from './types';

/*
 * Which charts of a dashboard a filter reaches, as the server applies it: a filter listing charts
 * reaches those; otherwise a date filter reaches the charts with a date field (a dataset
 * configuration's, else its dataset's), a field filter every chart computed from a dataset, and a
 * variable filter the charts whose dataset uses that variable.
 */

/** The variables a dataset uses: its bindings, its requests' bindings and the `{{name}}`s of their queries. */
export function variablesOf(dataset: Dataset): Set<string> {
  const names = new Set(dataset.VariableBindings.map((b) => b.name));
  for (const request of dataset.DataRequests) {
    for (const binding of request.VariableBindings) names.add(binding.name);
    for (const match of (request.query ?? '').matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)) names.add(match[1]!);
  }
  return names;
}

export function appliesTo(config: FilterConfiguration, chart: Chart, datasets: Dataset[]): boolean {
  if (config.type !== 'variable' && config.charts && config.charts.length > 0) return config.charts.includes(chart.id);
  const configs = chart.ChartDatasetConfigs;
  const datasetOf = (id: number) => datasets.find((d) => d.id === id);
  if (config.type === 'date') return configs.some((c) => Boolean(c.dateField || datasetOf(c.dataset_id)?.dateField));
  if (config.type === 'field') return configs.length > 0;
  // A dataset the editor could not read (another team member's, not on this dashboard): assumed to use it.
  return configs.some((c) => {
    const dataset = datasetOf(c.dataset_id);
    return !dataset || variablesOf(dataset).has(config.variable);
  });
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

import { describe, expect, it } from 'vitest';
import { cutDataText, emptyReasonOf, emptyReasonText, everyText, filteredByText, notFilteredByText, refreshMark } from './card-notes.js';

describe('cutDataText: what a card says of data a limit cut', () => {
  it('says nothing of whole data', () => {
    expect(cutDataText(null)).toBeNull();
    expect(cutDataText({ data: { labels: [], datasets: [] } })).toBeNull();
  });

  it('names the limit that left rows out', () => {
    expect(cutDataText({ truncated: true, truncatedBy: 'rows', rowLimit: 100000 })).toBe('Partial data: computed from the first 100,000 rows only');
    expect(cutDataText({ truncated: true, truncatedBy: 'bytes', byteLimit: 64 * 1048576 })).toBe('Partial data: computed from the first 64 MiB of data only');
    expect(cutDataText({ truncated: true, truncatedBy: 'pages', pageLimit: 50 })).toBe('Partial data: the source had more than its first 50 pages');
  });

  it("says how many of a split's series are drawn, for one configuration or several, beside a row limit", () => {
    expect(cutDataText({ seriesTruncated: true, seriesLimit: 5, breakdowns: [{ datasetIndex: 0, label: 'Revenue', series: 37, shown: 5 }] })).toBe('Showing the 5 largest of 37 series');
    expect(
      cutDataText({
        seriesTruncated: true,
        seriesLimit: 20,
        breakdowns: [
          { datasetIndex: 0, label: 'Revenue', series: 37, shown: 5 },
          { datasetIndex: 1, label: 'Orders', series: 25, shown: 20 },
        ],
      }),
    ).toBe('Showing the largest series only: Revenue 5 of 37, Orders 20 of 25');
    expect(cutDataText({ truncated: true, rowLimit: 1000, seriesTruncated: true, breakdowns: [{ label: 'A', series: 3, shown: 2 }] })).toBe(
      'Partial data: computed from the first 1,000 rows only; Showing the 2 largest of 3 series',
    );
  });
});

describe('emptyReasonText: why a chart has nothing to draw', () => {
  it('reads the reason the server gave, naming the field without its path', () => {
    expect(emptyReasonOf({ data: {} })).toBeNull();
    expect(emptyReasonOf({ empty: { reason: 'NO_ROWS' } })).toEqual({ reason: 'NO_ROWS' });
    expect(emptyReasonText({ reason: 'NO_ROWS' })).toBe('No data: the dataset returned no rows.');
    expect(emptyReasonText({ reason: 'FIELD_MISSING', field: 'root[].region' })).toBe("No data: the field “region” is not in the dataset's rows.");
    expect(emptyReasonText({ reason: 'VARIABLE_MISSING', variables: ['from', 'to'] })).toBe('No data: {{from}}, {{to}} has no value.');
    expect(emptyReasonText({ reason: 'SOMETHING_NEW' })).toBe('No data: nothing to show.');
  });

  it('names each dataset of a chart of several by its legend, or its place', () => {
    const reason = { reason: 'NO_ROWS', datasets: [{ reason: 'NO_ROWS', legend: 'Refunds' }, { reason: 'FILTERED', by: 'dateRange' }] };
    expect(emptyReasonText(reason)).toBe('No data. Refunds: the dataset returned no rows; dataset 2: no row falls in the chart’s date range.');
  });
});

describe('refreshMark: what a card says of the age of its data', () => {
  const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : null);
  const data = '2026-03-02T10:00:00.000Z';

  it('a failed refresh: the reason, its time and the time of the data shown (the message where the viewer may read it)', () => {
    expect(refreshMark({ chartDataUpdated: data, lastError: { code: 'SOURCE_UNREACHABLE', at: '2026-03-03T10:00:00.000Z' } }, when)).toEqual({
      kind: 'failed',
      text: 'Refresh failed 2026-03-03 10:00: SOURCE_UNREACHABLE. Showing the data of 2026-03-02 10:00.',
    });
    expect(refreshMark({ chartDataUpdated: null, lastError: { code: 'X', message: 'relation "archive" does not exist', at: '2026-03-03T10:00:00.000Z' } }, when)?.text).toBe(
      'Refresh failed 2026-03-03 10:00: relation "archive" does not exist (X). No good data yet.',
    );
  });

  it('an overdue refresh: since when, and how often it should be', () => {
    expect(refreshMark({ chartDataUpdated: data, refreshOverdue: { since: data, everySeconds: 3_600 } }, when)).toEqual({
      kind: 'overdue',
      text: 'Not refreshed since 2026-03-02 10:00, although it should refresh every hour.',
    });
  });

  it('one mark only: the failure wins over the overdue data it caused; none for fresh data', () => {
    const both = { chartDataUpdated: data, lastError: { code: 'CHART_QUERY_FAILED', at: data }, refreshOverdue: { since: data, everySeconds: 60 } };
    expect(refreshMark(both, when)?.kind).toBe('failed');
    expect(refreshMark({ chartDataUpdated: data, lastError: null, refreshOverdue: null }, when)).toBeNull();
  });

  it('periods in words', () => {
    expect([60, 900, 3_600, 21_600, 86_400, 172_800, 604_800, 1_209_600, 90, 1, 5_400].map(everyText)).toEqual([
      'every minute',
      'every 15 minutes',
      'every hour',
      'every 6 hours',
      'every day',
      'every 2 days',
      'every week',
      'every 2 weeks',
      'every 90 seconds',
      'every second',
      'every 90 minutes',
    ]);
  });
});

describe('filter notes: which filters set narrow a card, and which do not', () => {
  it('names them, or says nothing', () => {
    expect(filteredByText(['Order date', 'Country'])).toBe('Filtered by Order date, Country');
    expect(notFilteredByText(['Country'])).toBe('Not filtered by Country');
    expect(filteredByText([])).toBeNull();
    expect(notFilteredByText([])).toBeNull();
  });
});

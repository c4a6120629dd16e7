import { describe, expect, it } from 'vitest';
import { cutDataText, emptyReasonOf, emptyReasonText } from './card-notes.js';

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

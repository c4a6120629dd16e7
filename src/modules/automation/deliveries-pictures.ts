/*
 * The pictures a delivery sends, as the renderer (the dashboards context's snapshots service)
 * draws them from saved chartData, without a browser. Declared here as a narrow port so the
 * deliveries speak only these three calls; the renderer satisfies it structurally.
 */

export type PictureTheme = 'light' | 'dark';

/** A dashboard's runtime filter state, as the filter runs take it (validated by them). */
export interface PictureFilterState {
  filters: unknown;
  variables: unknown;
}

export interface ChartPictureResult {
  contentType: string;
  body: Buffer;
  width: number;
  height: number;
  dataUpdatedAt: string | null;
}

export interface DashboardPictureResult {
  contentType: string;
  body: Buffer;
  pages: number;
  dataUpdatedAt: string | null;
}

export interface DeliveryPictures {
  chartPicture(
    scope: { teamId: number; projectId: number; chartId: number },
    options: { format: 'png' | 'svg'; theme?: PictureTheme; width?: number; height?: number },
  ): Promise<ChartPictureResult>;
  dashboardPicture(
    scope: { teamId: number; projectId: number },
    options: { format: 'png' | 'pdf'; theme?: PictureTheme; width?: number; pages?: 'screens' | 'single'; filters?: PictureFilterState },
  ): Promise<DashboardPictureResult>;
  signImageLink(scope: { teamId: number; projectId: number; chartId?: number }, options: { format: 'png' | 'svg' | 'pdf'; theme?: PictureTheme; expiresInSeconds?: number }): string;
}

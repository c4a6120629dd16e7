export { chartPng, chartSvg } from './chart-picture.js';
export { dashboardPdf, dashboardPng, MAX_DASHBOARD_HEIGHT, PictureTooLargeError, screenHeight, type DashboardPdfOptions } from './dashboard-picture.js';
export { GRID, placeCards } from './dashboard-layout.js';
export type { Theme } from './theme.js';
export type { ChartPictureOptions, ChartView, DashboardDocument, DashboardPictureOptions, DashboardView, Picture } from './types.js';

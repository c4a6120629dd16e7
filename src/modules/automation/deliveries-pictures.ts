import type { SnapshotsService } from '../dashboards/index.js';

/*
 * The pictures a delivery or an alert sends, as the dashboards context's snapshots service draws
 * them from saved chartData, without a browser: only these three of its calls.
 */
export type DeliveryPictures = Pick<SnapshotsService, 'chartPicture' | 'dashboardPicture' | 'signImageLink'>;

import { Counter, Histogram, Registry } from 'prom-client';

export type PictureKind = 'chart' | 'dashboard';

/** Picture metrics, on a registry of their own that `/metrics` serves with the HTTP ones. */
export class PictureMetrics {
  readonly registry = new Registry();
  private readonly seconds: Histogram<'kind' | 'format'>;
  private readonly bytes: Counter<'kind' | 'format'>;

  constructor() {
    const registers = [this.registry];
    this.seconds = new Histogram({
      name: 'plotline_picture_render_seconds',
      help: 'Time to draw and encode a picture (data already at hand), by kind (chart, dashboard) and format',
      labelNames: ['kind', 'format'] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.bytes = new Counter({ name: 'plotline_picture_bytes_total', help: 'Bytes of pictures produced, by kind and format', labelNames: ['kind', 'format'] as const, registers });
  }

  observe(kind: PictureKind, format: string, seconds: number, bytes: number): void {
    this.seconds.observe({ kind, format }, seconds);
    this.bytes.inc({ kind, format }, bytes);
  }
}

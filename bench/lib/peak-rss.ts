/** Samples the resident set size while work runs; reports the peak in MiB. */
export class PeakRss {
  private peak = process.memoryUsage.rss();
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs = 10) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
  }

  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return Math.round((this.peak / 1024 / 1024) * 10) / 10;
  }
}

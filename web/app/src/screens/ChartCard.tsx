import { useEffect, useRef } from 'react';
import { renderChartCard } from '../../../src/lib/charts/index';
import type { PublicChart } from '../../../src/lib/types';

/** The report page's own chart card (same renderers), mounted in React; `emptyText` replaces an empty chart. */
export function ChartCard({ chart, emptyText }: { chart: PublicChart; emptyText?: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const rendered = renderChartCard(chart, emptyText === undefined ? {} : { emptyText });
    host.current!.replaceChildren(rendered.card);
    // Canvases size themselves from their parent: draw once the card is in the page.
    rendered.redraw();
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const redraw = () => rendered.redraw();
    media.addEventListener('change', redraw);
    return () => media.removeEventListener('change', redraw);
  }, [chart, emptyText]);
  return <div className="chart-host" ref={host} />;
}

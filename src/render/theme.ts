/** The report page's two themes (web/src/styles.css), as the colours a canvas needs. */
export type Theme = 'light' | 'dark';

export interface Colours {
  bg: string;
  card: string;
  fg: string;
  muted: string;
  border: string;
  grid: string;
  accent: string;
  positive: string;
  negative: string;
  /** An empty day of a calendar heatmap. */
  emptyCell: string;
  /** The "partial data" badge, and the band of a card whose data is overdue (with its edge). */
  warningFg: string;
  warningBg: string;
  warningEdge: string;
  /** The band of a card whose latest refresh failed. */
  failedFg: string;
  failedBg: string;
  failedEdge: string;
}

const LIGHT: Colours = {
  bg: '#f5f6f8',
  card: '#ffffff',
  fg: '#1d2433',
  muted: '#5b6472',
  border: '#e1e4ea',
  grid: 'rgba(29, 36, 51, 0.08)',
  accent: '#2f6fed',
  positive: '#1a7f37',
  negative: '#c62828',
  emptyCell: '#ebedf0',
  warningFg: '#8a4b00',
  warningBg: '#fff4e0',
  warningEdge: '#d08400',
  failedFg: '#7a1f1f',
  failedBg: '#fdecec',
  failedEdge: '#c62828',
};

const DARK: Colours = {
  bg: '#0f141c',
  card: '#171e29',
  fg: '#e6e9ef',
  muted: '#9aa4b2',
  border: '#283140',
  grid: 'rgba(230, 233, 239, 0.1)',
  accent: '#6b9cff',
  positive: '#4cc26b',
  negative: '#ff6b6b',
  emptyCell: '#2a3140',
  warningFg: '#8a4b00',
  warningBg: '#fff4e0',
  warningEdge: '#d08400',
  failedFg: '#7a1f1f',
  failedBg: '#fdecec',
  failedEdge: '#c62828',
};

export function coloursOf(theme: Theme): Colours {
  return theme === 'dark' ? DARK : LIGHT;
}

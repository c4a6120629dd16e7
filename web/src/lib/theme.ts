import type { Theme } from './types.js';

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** Light, dark, or following the OS; CSS does the colours, this only sets the attribute. */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset['theme'] = theme;
}

export function isDark(): boolean {
  const theme = document.documentElement.dataset['theme'];
  if (theme === 'dark') return true;
  if (theme === 'light') return false;
  return darkQuery().matches;
}

/** Calls back when the OS scheme flips while the page follows it (charts repaint their axes). */
export function onSchemeChange(callback: () => void): void {
  darkQuery().addEventListener('change', () => {
    if (document.documentElement.dataset['theme'] === 'os') callback();
  });
}

/** A CSS custom property of the current theme, for canvases that cannot read CSS themselves. */
export function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

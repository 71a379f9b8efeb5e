// Chart colours come from the theme's CSS variables (theme.css), read when a chart is drawn:
// canvas strokes cannot use var(), so the charts are redrawn when the theme changes.
import { useEffect, useState } from 'react';

export interface ChartColors {
  text: string;
  muted: string;
  grid: string;
  accent: string;
  error: string;
  ok: string;
  running: string;
  bar: string;
}

export type ChartColor = keyof ChartColors;

export function readChartColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--text', '#1b1f24'),
    muted: v('--text-muted', '#5d6670'),
    grid: v('--border', '#dde1e7'),
    accent: v('--accent', '#2f6fde'),
    error: v('--error', '#c93535'),
    ok: v('--ok', '#1f8a4c'),
    running: v('--running', '#b7791f'),
    bar: v('--bar', '#9db8e8'),
  };
}

/** `#rgb` / `#rrggbb` with an alpha, for fills; any other colour string is returned as it is. */
export function withAlpha(color: string, alpha: number): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color);
  if (!m) return color;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** Changes whenever the theme does (`<html data-theme>`): a dependency that redraws charts. */
export function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const observer = new MutationObserver(() => setVersion((n) => n + 1));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return version;
}

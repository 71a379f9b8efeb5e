// Light and dark themes: the OS preference until the user picks one, remembered here.
import { useEffect, useState } from 'react';

export type Theme = 'light' | 'dark';
const KEY = 'weft.theme';

function initial(): Theme {
  const stored = localStorage.getItem(KEY);
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function useTheme(): [Theme, (t: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(initial);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return [
    theme,
    (t) => {
      localStorage.setItem(KEY, t);
      setTheme(t);
    },
  ];
}

// The browser tab's title for a view: `Agents · acme/support-bot · Weft`.
import { useEffect } from 'react';

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Weft`;
    return () => {
      document.title = 'Weft';
    };
  }, [title]);
}

// The frame around every view: the project it is in, the sections, theme and key, and
// the global shortcuts.
import { useEffect, useRef, useState } from 'react';
import { Link, Outlet, useNavigate, useParams } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { setKey, useAuth } from '../api/auth';
import { useTheme } from '../theme';
import { KeyPrompt } from './KeyPrompt';
import { ShortcutsDialog } from './ShortcutsDialog';
import { MoonIcon, SunIcon } from './icons';
import styles from './Shell.module.css';

/** The sections of a project, in the header, with the key that goes there after `g` (`g p` is the projects). */
const SECTIONS = [
  ['/$entity/$project/calls', 'Calls', 'c'],
  ['/$entity/$project/threads', 'Threads', 't'],
  ['/$entity/$project/agents', 'Agents', 'a'],
  ['/$entity/$project/evaluations', 'Evaluations', 'e'],
  ['/$entity/$project/objects', 'Objects', 'o'],
  ['/$entity/$project/monitor', 'Metrics', 'm'],
  ['/$entity/$project/monitors', 'Monitors', null],
  ['/$entity/$project/playground', 'Playground', 'y'],
  ['/$entity/$project/settings/providers', 'Providers', null],
] as const;

/** True when a key press belongs to a text field, not to the page's shortcuts. */
export function typingIn(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return (
    t !== null && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)
  );
}

export function Shell() {
  const params = useParams({ strict: false }) as { entity?: string; project?: string };
  const [theme, setTheme] = useTheme();
  const auth = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [showShortcuts, setShowShortcuts] = useState(false);
  const pendingG = useRef(0);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingIn(e) || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'Escape') setShowShortcuts(false);
      if (e.key === '?') setShowShortcuts((s) => !s);
      if (e.key === 'g') {
        pendingG.current = Date.now();
        return;
      }
      if (Date.now() - pendingG.current < 1000) {
        if (e.key === 'p') void navigate({ to: '/' });
        const section = SECTIONS.find(([, , key]) => key === e.key);
        if (section && params.entity && params.project)
          void navigate({ to: section[0], params: { entity: params.entity, project: params.project } });
      }
      pendingG.current = 0;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, params.entity, params.project]);

  return (
    <div className={styles.app}>
      <header className={styles.header}>
        <Link to="/" className={styles.brand} data-testid="brand">
          Weft
        </Link>
        {params.entity && params.project && (
          <nav className={styles.crumbs} aria-label="Project">
            <span className={styles.muted}>{params.entity}</span>
            <span className={styles.muted}>/</span>
            <strong data-testid="current-project">{params.project}</strong>
            {SECTIONS.map(([to, label]) => (
              <Link
                key={to}
                to={to}
                params={{ entity: params.entity!, project: params.project! }}
                className={styles.navLink}
                activeProps={{ className: `${styles.navLink} ${styles.navActive}` }}
                activeOptions={{ exact: false, includeSearch: false }}
                data-testid={`nav-${label.toLowerCase()}`}
              >
                {label}
              </Link>
            ))}
          </nav>
        )}
        <span className={styles.spacer} />
        {auth.key !== null && (
          <button
            type="button"
            title="Forget the API key this browser sends"
            onClick={() => {
              setKey(null, false);
              queryClient.clear();
            }}
          >
            Forget key
          </button>
        )}
        <button
          type="button"
          onClick={() => setShowShortcuts(true)}
          title="Keyboard shortcuts (?)"
          aria-label="Keyboard shortcuts"
        >
          ?
        </button>
        <button
          type="button"
          data-testid="theme-toggle"
          aria-label={theme === 'dark' ? 'Use the light theme' : 'Use the dark theme'}
          title={theme === 'dark' ? 'Light theme' : 'Dark theme'}
          onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
        >
          {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
        </button>
      </header>
      <main className={styles.main}>
        <Outlet />
      </main>
      <KeyPrompt onSaved={() => void queryClient.invalidateQueries()} />
      {showShortcuts && <ShortcutsDialog onClose={() => setShowShortcuts(false)} />}
    </div>
  );
}

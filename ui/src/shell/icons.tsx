// Inline SVG icons (no icon font, nothing fetched).
const base = {
  width: 14,
  height: 14,
  viewBox: '0 0 16 16',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.5,
} as const;

export function SunIcon() {
  return (
    <svg {...base} aria-hidden="true">
      <circle cx="8" cy="8" r="3" />
      <path d="M8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6 13 13M3 13l1.4-1.4M11.6 4.4 13 3" />
    </svg>
  );
}

export function MoonIcon() {
  return (
    <svg {...base} aria-hidden="true">
      <path d="M13.5 9.5A5.5 5.5 0 0 1 6.5 2.5a5.5 5.5 0 1 0 7 7z" />
    </svg>
  );
}

export function Caret({ open }: { open: boolean }) {
  return (
    <svg
      {...base}
      aria-hidden="true"
      width={10}
      height={10}
      style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 80ms' }}
    >
      <path d="M6 3l5 5-5 5" />
    </svg>
  );
}

/** A call's state: finished, failed, or still running. */
export function StatusDot({ status }: { status: 'success' | 'error' | 'running' | string }) {
  const color = status === 'error' ? 'var(--error)' : status === 'running' ? 'var(--running)' : 'var(--ok)';
  return (
    <svg width={8} height={8} viewBox="0 0 8 8" aria-label={status} role="img" data-status={status}>
      <circle cx="4" cy="4" r="4" fill={color} />
    </svg>
  );
}

export function EyeIcon() {
  return (
    <svg {...base} aria-hidden="true">
      <path d="M1 8s2.5-5 7-5 7 5 7 5-2.5 5-7 5-7-5-7-5z" />
      <circle cx="8" cy="8" r="2" />
    </svg>
  );
}

// The timeline's time axis, in the bar column of the tree's grid: ticks as offsets from the
// trace's start over the window shown; dragging across it zooms to that stretch.
import { useRef, useState } from 'react';
import { formatDuration } from '../format';
import styles from './TracePage.module.css';

const TICKS = [0, 0.5, 1];

export interface TimeAxisProps {
  /** The window shown, as ms from the trace's start. */
  from: number;
  to: number;
  zoomed: boolean;
  /** A stretch picked by dragging, as ms from the trace's start. */
  onZoom: (from: number, to: number) => void;
  onReset: () => void;
}

export function TimeAxis({ from, to, zoomed, onZoom, onReset }: TimeAxisProps) {
  const track = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<[number, number] | null>(null);
  const fraction = (clientX: number) => {
    const r = track.current!.getBoundingClientRect();
    return Math.min(Math.max((clientX - r.left) / r.width, 0), 1);
  };
  const span = to - from;
  return (
    <div className={styles.axisRow} data-testid="time-axis" data-from={from} data-to={to}>
      <span className={styles.axisLabel}>
        {zoomed && (
          <button type="button" onClick={onReset} data-testid="reset-zoom">
            Reset zoom
          </button>
        )}
      </span>
      <div
        ref={track}
        className={styles.axisTrack}
        title="Drag to zoom"
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          const f = fraction(e.clientX);
          setDrag([f, f]);
        }}
        onPointerMove={(e) => drag && setDrag([drag[0], fraction(e.clientX)])}
        onPointerUp={() => {
          if (drag) {
            const [a, b] = [Math.min(...drag), Math.max(...drag)];
            if (b - a > 0.01) onZoom(from + a * span, from + b * span);
          }
          setDrag(null);
        }}
      >
        {TICKS.map((t) => (
          <span
            key={t}
            className={styles.tick}
            style={t === 1 ? { right: 0 } : { left: `${t * 100}%` }}
            data-testid="axis-tick"
            data-at={t}
          >
            {from + t * span === 0 ? '0 ms' : formatDuration(from + t * span)}
          </span>
        ))}
        {drag && (
          <span
            className={styles.axisPick}
            style={{ left: `${Math.min(...drag) * 100}%`, width: `${Math.abs(drag[1] - drag[0]) * 100}%` }}
          />
        )}
      </div>
      <span />
      <span />
      <span />
    </div>
  );
}

// The CLI's progress display on stderr, shared by `weft copy` and `weft backup`: on a terminal
// one bar redrawn in place (at most every 200 ms), else one line per finished step, so logs
// of scripted runs stay short.

export interface ProgressBar {
  /** A step starts (ending the previous one): `total` units, null when not known up front. */
  begin(label: string, total: number | null): void;
  /** `n` more units of the current step are done. */
  advance(n: number): void;
  /** The last step is over: its final line is written. */
  end(): void;
}

const WIDTH = 30;

export function createProgressBar(out: NodeJS.WriteStream): ProgressBar {
  let label = '';
  let total: number | null = null;
  let done = 0;
  let drawn = 0;
  const draw = (final: boolean) => {
    const now = Date.now();
    if (!final && now - drawn < 200) return;
    drawn = now;
    const count = `${done}${total === null ? '' : `/${total}`}`;
    if (!out.isTTY) {
      if (final) out.write(`${label}: ${done}${total === null ? '' : ` of ${total}`}\n`);
      return;
    }
    const share = total ? Math.min(1, done / total) : 0;
    const bar = '#'.repeat(Math.round(share * WIDTH)).padEnd(WIDTH, '.');
    out.write(`\r[${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${label} ${count}\x1b[K${final ? '\n' : ''}`);
  };
  return {
    begin(next, n) {
      if (label) draw(true);
      label = next;
      total = n;
      done = 0;
      drawn = 0;
      draw(false);
    },
    advance(n) {
      done += n;
      draw(false);
    },
    end() {
      if (label) draw(true);
      label = '';
    },
  };
}

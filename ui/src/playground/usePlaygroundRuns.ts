// The runs of the playground's columns: one streamed completion per model, all started at
// once on the same messages. Each run shows its text as the lines arrive, its times as the
// browser measures them (first output, whole answer), and once the stream ends the cost of
// the call it recorded (read back with include_costs: the server prices its usage).
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { totalCost } from '../call/callFacts';
import { readCall, streamCompletion } from './playgroundApi';
import { applyLine, EMPTY_ANSWER, hasOutput, type StreamAnswer } from './streamAnswer';

export interface ColumnRun {
  id: number;
  status: 'running' | 'done' | 'stopped';
  answer: StreamAnswer;
  firstOutputMs: number | null;
  totalMs: number | null;
  /** USD; null: the model has no price; undefined: not read yet. */
  cost: number | null | undefined;
}

const failureText = (e: unknown) =>
  e instanceof ApiError ? `${e.status}: ${e.reason}` : e instanceof Error ? e.message : String(e);

export function usePlaygroundRuns(projectId: string) {
  const [runs, setRuns] = useState<ColumnRun[]>([]);
  const aborts = useRef(new Map<number, AbortController>());
  const nextId = useRef(0);

  const stop = useCallback(() => {
    for (const a of aborts.current.values()) a.abort();
    aborts.current.clear();
  }, []);
  useEffect(() => stop, [stop]);

  const runOne = useCallback(
    async (id: number, inputs: Record<string, unknown>, abort: AbortController) => {
      const update = (f: (r: ColumnRun) => ColumnRun) => setRuns((all) => all.map((r) => (r.id === id ? f(r) : r)));
      const started = performance.now();
      let answer = EMPTY_ANSWER;
      try {
        await streamCompletion(
          projectId,
          inputs as { model: string },
          (line) => {
            answer = applyLine(answer, line);
            const first = hasOutput(line) ? performance.now() - started : null;
            update((r) => ({ ...r, answer, firstOutputMs: r.firstOutputMs ?? first }));
          },
          abort.signal,
        );
      } catch (e) {
        if (abort.signal.aborted) {
          update((r) => ({ ...r, status: 'stopped', totalMs: performance.now() - started }));
          return;
        }
        answer = { ...answer, error: failureText(e) };
      }
      update((r) => ({ ...r, answer, status: 'done', totalMs: performance.now() - started }));
      if (answer.callId === null) return;
      try {
        const call = await readCall(projectId, answer.callId, abort.signal);
        update((r) => ({ ...r, cost: call !== null && hasPrice(call) ? totalCost(call) : null }));
      } catch {
        update((r) => ({ ...r, cost: null }));
      }
    },
    [projectId],
  );

  /** Starts one run per inputs (one per column), stopping any still running. */
  const runAll = useCallback(
    (inputsPerColumn: Record<string, unknown>[]) => {
      stop();
      const started: ColumnRun[] = inputsPerColumn.map(() => ({
        id: ++nextId.current,
        status: 'running',
        answer: EMPTY_ANSWER,
        firstOutputMs: null,
        totalMs: null,
        cost: undefined,
      }));
      setRuns(started);
      inputsPerColumn.forEach((inputs, i) => {
        const abort = new AbortController();
        aborts.current.set(started[i]!.id, abort);
        void runOne(started[i]!.id, inputs, abort);
      });
    },
    [runOne, stop],
  );

  /** Forgets column `index`'s run (the column is gone), stopping it. */
  const drop = useCallback(
    (index: number) => {
      const gone = runs[index];
      if (gone !== undefined) aborts.current.get(gone.id)?.abort();
      setRuns((all) => all.filter((_, i) => i !== index));
    },
    [runs],
  );

  return { runs, runAll, stop, drop };
}

/** Whether summary.weave.costs prices some model of the call. */
function hasPrice(call: { summary?: unknown }): boolean {
  const costs = (call?.summary as { weave?: { costs?: Record<string, unknown> } } | undefined)?.weave?.costs;
  return costs !== undefined && Object.keys(costs).length > 0;
}

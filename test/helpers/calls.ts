// Builders for call start/end bodies shaped like the TS SDK's (sdk-traffic.md §3.2).
import { PROJECT } from './test-app.js';

let seq = 0;
/** A fresh lowercase UUIDv7-shaped id; ids made later sort after earlier ones (48-bit ms time, then a counter). */
export function newId(): string {
  seq += 1;
  const hex = Date.now().toString(16).padStart(12, '0') + seq.toString(16).padStart(6, '0');
  const rnd = Math.floor(Math.random() * 0xffffffffffff)
    .toString(16)
    .padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(12, 15)}-8${hex.slice(15, 18)}-${rnd}`;
}

export const opRef = (name: string, digest = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG') =>
  `weave:///${PROJECT}/op/${name}:${digest}`;

export interface StartOpts {
  id?: string;
  trace_id?: string;
  parent_id?: string;
  op?: string;
  started_at?: string;
  inputs?: Record<string, unknown>;
  attributes?: Record<string, unknown>;
  display_name?: string;
  thread_id?: string;
  turn_id?: string;
  wb_run_id?: string;
  wb_run_step?: number;
  project_id?: string;
}

export function start(o: StartOpts = {}) {
  return {
    project_id: o.project_id ?? PROJECT,
    id: o.id ?? newId(),
    op_name: o.op ?? opRef('op'),
    trace_id: o.trace_id ?? newId(),
    ...(o.parent_id ? { parent_id: o.parent_id } : {}),
    started_at: o.started_at ?? '2026-11-21T05:03:29.057Z',
    attributes: o.attributes ?? { weave: { client_version: '0.11.1', source: 'js-sdk' } },
    inputs: o.inputs ?? { arg0: 21 },
    ...(o.display_name ? { display_name: o.display_name } : {}),
    ...(o.thread_id ? { thread_id: o.thread_id } : {}),
    ...(o.turn_id ? { turn_id: o.turn_id } : {}),
    ...(o.wb_run_id ? { wb_run_id: o.wb_run_id } : {}),
    ...(o.wb_run_step !== undefined ? { wb_run_step: o.wb_run_step } : {}),
  };
}

export interface EndOpts {
  ended_at?: string;
  output?: unknown;
  exception?: string;
  summary?: Record<string, unknown>;
  wb_run_step_end?: number;
  project_id?: string;
}

export function end(id: string, o: EndOpts = {}) {
  return {
    project_id: o.project_id ?? PROJECT,
    id,
    ended_at: o.ended_at ?? '2026-11-21T05:03:29.558Z',
    output: o.output === undefined ? 42 : o.output,
    summary: o.summary ?? {},
    ...(o.exception ? { exception: o.exception } : {}),
    ...(o.wb_run_step_end !== undefined ? { wb_run_step_end: o.wb_run_step_end } : {}),
  };
}

export const startItem = (s: ReturnType<typeof start>) => ({ mode: 'start', req: { start: s } });
export const endItem = (e: ReturnType<typeof end>) => ({ mode: 'end', req: { end: e } });

/** Parses a JSON Lines body. */
export const jsonl = (text: string): any[] =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

// The Node process's own metrics (CPU, memory, event loop lag, garbage collection, handles:
// prom-client's default set, `process_*` and `nodejs_*`). They describe the process, not an
// app, so one registry per process holds them, made on first use: every app's /metrics shows
// it, and the timers and observers that feed it are started once however many apps a process
// builds (tests build many). Never prom-client's global registry.
import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | null = null;

export function processMetrics(): Registry {
  if (registry === null) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}

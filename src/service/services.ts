// The composition root of the services: each is built once per app, over the app's (metered)
// store, and handed to the routes that need it. One calls service means one ingest lane
// (serial-lane.ts) for the SDK routes and OTLP alike.
import type { Store } from '../storage/store.js';
import { createAgentFeedbackEnricher } from './agents/agent-feedback.js';
import { type AgentsService, createAgentsService } from './agents/agents-service.js';
import { createHistoricalTurnsService, type HistoricalTurnsService } from './agents/historical-turns.js';
import { type CallsService, createCallsService } from './calls/calls-service.js';
import { type CostService, createCostService } from './costs/cost-service.js';
import { createFeedbackService, type FeedbackService } from './feedback/feedback-service.js';
import { createRetentionService, type RetentionService } from './retention/retention-service.js';
import { createSecretsService, type SecretsService } from './secrets/secret-service.js';
import { createCompletionsService, type CompletionsService } from './completions/completions-service.js';
import { createSafeFetch } from '../outbound/safe-fetch.js';
import { createSignalsService, type SignalsOptions, type SignalsService } from './signals/signals-service.js';

export interface Services {
  /** For the services that are functions over a sub-store (objects, tables, files, refs, threads). */
  readonly store: Store;
  readonly calls: CallsService;
  readonly feedback: FeedbackService;
  readonly costs: CostService;
  readonly retention: RetentionService;
  readonly agents: AgentsService;
  readonly historicalTurns: HistoricalTurnsService;
  readonly secrets: SecretsService;
  readonly completions: CompletionsService;
  readonly signals: SignalsService;
}

export interface ServiceOptions {
  /** The key sealing stored secrets, read on first need (secrets/secret-key.ts). */
  readonly secretsKey: () => Buffer;
  /** Hosts outbound requests may reach beyond public addresses (WEFT_OUTBOUND_ALLOWED_HOSTS). */
  readonly outboundAllowedHosts: readonly string[];
  /** Where WEFT_PROVIDER_<NAME>_BASE_URL and WEFT_SECRET_<NAME> are read. */
  readonly env: NodeJS.ProcessEnv;
  /** The signals worker's bounds and where it logs. */
  readonly signals: SignalsOptions;
}

export function createServices(store: Store, opts: ServiceOptions): Services {
  // The signals service hears of written calls; it is built after the services it uses.
  let signals: SignalsService | null = null;
  const calls = createCallsService(store, { onWritten: (parts) => void signals?.callsWritten(parts) });
  const secrets = createSecretsService({ store: store.secrets, key: opts.secretsKey, env: opts.env });
  const feedback = createFeedbackService(store.feedback, { complete: createAgentFeedbackEnricher(store.spans) });
  const fetch = createSafeFetch({ allowedHosts: opts.outboundAllowedHosts });
  const completions = createCompletionsService({ objects: store.objects, secrets, calls, fetch, env: opts.env });
  signals = createSignalsService({ store, calls, feedback, completions, secrets, fetch }, opts.signals);
  return {
    store,
    calls,
    feedback,
    costs: createCostService(store.costs),
    retention: createRetentionService(store),
    agents: createAgentsService(store.spans, store.costs, store.feedback, (rows) => void signals?.spansWritten(rows)),
    historicalTurns: createHistoricalTurnsService(store.spans, store.historicalTurns),
    secrets,
    completions,
    signals,
  };
}

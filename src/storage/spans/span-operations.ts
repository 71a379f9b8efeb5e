// The GenAI operations Weft's settlement and rollups tell apart (gen_ai.operation.name, or what
// another convention's span was read as: ingest/genai/fallbacks.ts).

/** Operations that run other agents: their spans are invocations of an orchestrator. */
export const ORCHESTRATION_OPERATIONS: ReadonlySet<string> = new Set(['invoke_swarm', 'invoke_workflow']);
/** Invocations: an agent's run, or an orchestrator's. */
export const INVOCATIONS: ReadonlySet<string> = new Set(['invoke_agent', ...ORCHESTRATION_OPERATIONS]);
/** Spans whose token figures may repeat their subtree's (summed over the calls under them). */
export const AGGREGATING: ReadonlySet<string> = new Set([...INVOCATIONS, 'execute_node']);
/** Model calls: an invocation that makes one is an agent of its own, not only an orchestrator. */
export const MODEL_CALLS: ReadonlySet<string> = new Set(['chat', 'text_completion', 'generate_content']);

export const isInvocation = (operation: string | null): boolean => operation !== null && INVOCATIONS.has(operation);

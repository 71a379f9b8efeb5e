// A final answer given as structured output rather than text. Strands' Swarm members end their
// turn by calling the `strands_structured_output` tool with {agentId?, message, context?}: with an
// agentId it is a hand-off, without one `message` is the answer the Swarm returns, and nothing
// else on the spans carries it (the agent's own output is an empty text part). The chat shows
// it as the agent's message after the tool call.
const STRUCTURED_OUTPUT_TOOLS: ReadonlySet<string> = new Set(['strands_structured_output']);

/** The answer a structured-output tool call gives, or null when it is not one (or hands off). */
export function structuredAnswer(toolName: string, args: string | null): string | null {
  if (!STRUCTURED_OUTPUT_TOOLS.has(toolName) || args === null) return null;
  try {
    const v = JSON.parse(args) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
    const { agentId, message } = v as { agentId?: unknown; message?: unknown };
    return agentId === undefined && typeof message === 'string' && message !== '' ? message : null;
  } catch {
    return null;
  }
}

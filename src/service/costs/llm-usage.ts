// One llm_id's entry of summary.usage, read the way each provider's SDK records it, as the
// token counts a bill is made of. Weave folds only prompt/completion and input/output
// tokens; Weft also reads cached and cache-write tokens and Gemini's counts, so that a cost
// is what the provider charges.
//
// How the providers report (as the Weave SDKs copy them into summary.usage):
//   OpenAI, xAI, Mistral, LiteLLM: prompt_tokens includes cached tokens
//     (prompt_tokens_details.cached_tokens; Responses API: input_tokens_details.cached_tokens);
//     completion_tokens includes reasoning tokens.
//   DeepSeek: prompt_tokens includes prompt_cache_hit_tokens.
//   Anthropic: input_tokens EXCLUDES cache_read_input_tokens and cache_creation_input_tokens;
//     output_tokens includes thinking.
//   Gemini: prompt_token_count includes cached_content_token_count; thoughts_token_count is
//     billed as output but not part of candidates_token_count.
// A record that carries prompt_tokens (LiteLLM's OpenAI shape) counts Anthropic-named cache
// fields as part of it; one that carries only input_tokens (Anthropic's own) adds them.

export interface LlmUsage {
  /** Every input token: uncached, cache reads and cache writes. */
  readonly prompt_tokens: number;
  /** Every output token, reasoning included. */
  readonly completion_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly requests: number;
  /** As reported (total_tokens, or Gemini's total_token_count). */
  readonly total_tokens: number;
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Python's int() on a usage count, as Weave applies it: missing or unreadable is 0. */
export function count(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v);
  return 0;
}

const nested = (u: Dict, key: string, field: string) => (isDict(u[key]) ? count((u[key] as Dict)[field]) : 0);

export function llmUsage(u: Dict): LlmUsage {
  const reported = count(u.prompt_tokens) + count(u.input_tokens) + count(u.prompt_token_count);
  const anthropicRead = count(u.cache_read_input_tokens);
  const anthropicWrite = count(u.cache_creation_input_tokens);
  // Anthropic's own shape: cache tokens come on top of input_tokens.
  const separate = !('prompt_tokens' in u) && !('prompt_token_count' in u) ? anthropicRead + anthropicWrite : 0;
  const cacheRead =
    anthropicRead +
    nested(u, 'prompt_tokens_details', 'cached_tokens') +
    nested(u, 'input_tokens_details', 'cached_tokens') +
    count(u.cached_content_token_count) +
    count(u.prompt_cache_hit_tokens);
  return {
    prompt_tokens: reported + separate,
    completion_tokens:
      count(u.completion_tokens) +
      count(u.output_tokens) +
      count(u.candidates_token_count) +
      count(u.thoughts_token_count),
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: anthropicWrite,
    requests: count(u.requests),
    total_tokens: count(u.total_tokens) + count(u.total_token_count),
  };
}

/** summary.usage (as JSON text) by llm_id; entries that are not objects are skipped. */
export function usageOf(summaryJson: string | null): Map<string, LlmUsage> {
  const out = new Map<string, LlmUsage>();
  // Most summaries without usage are skipped unparsed.
  if (!summaryJson?.includes('"usage"')) return out;
  const summary = JSON.parse(summaryJson) as Dict | null;
  return isDict(summary) ? usageOfSummary(summary) : out;
}

/** As usageOf, for a summary already decoded. */
export function usageOfSummary(summary: Readonly<Dict>): Map<string, LlmUsage> {
  const out = new Map<string, LlmUsage>();
  const usage = summary.usage;
  if (!isDict(usage)) return out;
  for (const [llmId, u] of Object.entries(usage)) if (isDict(u)) out.set(llmId, llmUsage(u));
  return out;
}

/**
 * Total tokens over summary.usage's models: each model's reported total (total_tokens or
 * Gemini's total_token_count), else every input token (cached ones included) plus output,
 * as llmUsage counts them. Null when there is no usage object.
 */
export function usageTokens(summary: Record<string, unknown>): number | null {
  return isDict(summary.usage) ? tokensOf(usageOfSummary(summary)) : null;
}

/** As usageTokens, over usage already decoded (usageOf / usageOfSummary). */
export function tokensOf(usage: ReadonlyMap<string, LlmUsage>): number {
  let total = 0;
  for (const c of usage.values()) total += c.total_tokens > 0 ? c.total_tokens : c.prompt_tokens + c.completion_tokens;
  return total;
}

// The Chat Completions request a completion's inputs become: the provider's model name, the
// resolved messages, and every other parameter as sent, except Weave's own keys and those the
// client carries itself. Nulls are dropped (the Python SDK sends every unset field as null, and
// Weave's litellm runs with drop_params).
import type { CompletionInputs } from '../../api/completions.js';

/** Keys that are Weave's, the client's (headers, timeout) or a credential: never sent as parameters. */
const NOT_PARAMETERS = new Set([
  'model',
  'messages',
  'prompt',
  'template_vars',
  'vertex_credentials',
  'extra_headers',
  'api_key',
  'api_version',
  'api_base',
  'base_url',
  'timeout',
  'stream',
  'stream_options',
]);

export function requestBody(
  inputs: CompletionInputs,
  model: string,
  messages: readonly Record<string, unknown>[],
  stream: boolean,
): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages };
  for (const [k, v] of Object.entries(inputs)) if (!NOT_PARAMETERS.has(k) && v !== null && v !== undefined) body[k] = v;
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

// The model providers Weft knows without a Provider object: each reached through its OpenAI-
// compatible Chat Completions endpoint (the `openai` client speaks them all), keyed by the secret
// name Weave uses for it (weave-objects.md §9.2), with a base URL an operator may point at a
// gateway or a stand-in: WEFT_PROVIDER_<NAME>_BASE_URL.
//
// Anthropic and Gemini are spoken through their own OpenAI-compatible endpoints, not their
// native APIs (docs/models.md says what that leaves out).

export interface BuiltinProvider {
  readonly name: string;
  readonly baseUrl: string;
  readonly secretName: string;
  /** Plain model ids that belong to this provider without a `<provider>/` prefix. */
  readonly owns: RegExp | null;
  /** A few of its models, offered by /completions/models (any other id may be typed). */
  readonly models: readonly string[];
}

export const BUILTIN_PROVIDERS: readonly BuiltinProvider[] = [
  {
    name: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    secretName: 'OPENAI_API_KEY',
    owns: /^(?:gpt-|chatgpt-|o\d(?:$|-)|text-|davinci|babbage|ft:gpt-)/,
    models: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini'],
  },
  {
    name: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    secretName: 'ANTHROPIC_API_KEY',
    owns: /^claude-/,
    models: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'],
  },
  {
    name: 'gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    secretName: 'GEMINI_API_KEY',
    owns: /^gemini-/,
    models: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'],
  },
  {
    name: 'mistral',
    baseUrl: 'https://api.mistral.ai/v1',
    secretName: 'MISTRAL_API_KEY',
    owns: /^(?:mistral-|open-mistral|open-mixtral|codestral-|ministral-|pixtral-|magistral-)/,
    models: ['mistral-large-latest', 'mistral-medium-latest', 'mistral-small-latest'],
  },
  {
    name: 'groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    secretName: 'GROQ_API_KEY',
    owns: null,
    models: ['groq/llama-3.3-70b-versatile', 'groq/llama-3.1-8b-instant'],
  },
  {
    name: 'deepseek',
    baseUrl: 'https://api.deepseek.com/v1',
    secretName: 'DEEPSEEK_API_KEY',
    owns: /^deepseek-/,
    models: ['deepseek-chat', 'deepseek-reasoner'],
  },
  {
    name: 'xai',
    baseUrl: 'https://api.x.ai/v1',
    secretName: 'XAI_API_KEY',
    owns: /^grok-/,
    models: ['grok-4', 'grok-3-mini'],
  },
  {
    name: 'openrouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    secretName: 'OPENROUTER_API_KEY',
    owns: null,
    models: ['openrouter/openai/gpt-4o-mini', 'openrouter/anthropic/claude-sonnet-4.5'],
  },
];

const BY_NAME = new Map(BUILTIN_PROVIDERS.map((p) => [p.name, p]));

export function builtinProvider(name: string): BuiltinProvider | null {
  return BY_NAME.get(name) ?? null;
}

/** The provider's base URL: WEFT_PROVIDER_<NAME>_BASE_URL when set, else its public endpoint. */
export function builtinBaseUrl(p: BuiltinProvider, env: NodeJS.ProcessEnv): string {
  const set = env[`WEFT_PROVIDER_${p.name.toUpperCase()}_BASE_URL`];
  return (set !== undefined && set !== '' ? set : p.baseUrl).replace(/\/+$/, '');
}

/** The builtin provider of a plain model id (`gpt-4o`, `claude-...`), or null. */
export function ownerOf(model: string): BuiltinProvider | null {
  return BUILTIN_PROVIDERS.find((p) => p.owns?.test(model)) ?? null;
}

// The playground's URL state: where its messages come from (a stored call, an agent's chat span
// `<trace id>:<span id>`, a MessagesPrompt version by ref) and the models it runs, side by side
// (at most MAX_MODELS, comma separated).
export const MAX_MODELS = 4;

export interface PlaygroundSearch {
  call?: string;
  span?: string;
  prompt?: string;
  models?: string;
}

/** The model ids of `models=`, in order, without blanks. */
export function modelList(models: string | undefined): string[] {
  return (models ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '')
    .slice(0, MAX_MODELS);
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export function parsePlaygroundSearch(raw: Record<string, unknown>): PlaygroundSearch {
  const out: PlaygroundSearch = {};
  const call = text(raw.call);
  if (call) out.call = call;
  const span = text(raw.span);
  if (span && /^[^:]+:[^:]+$/.test(span)) out.span = span;
  const prompt = text(raw.prompt);
  if (prompt) out.prompt = prompt;
  const models = modelList(Array.isArray(raw.models) ? raw.models.join(',') : text(raw.models));
  if (models.length > 0) out.models = models.join(',');
  return out;
}

// Gemini inputs (google-genai `models.generate_content`, google-generativeai's
// GenerativeModel) as a playground draft in OpenAI's shape. `contents` is a string, a list of
// strings or parts (one user turn), or Content objects ({role: 'user' | 'model', parts}); a
// function_call part is an assistant tool call, a function_response part a tool message
// answering the latest call of that name; inline images become image_url parts. The system
// instruction, parameters and tools come from `config` (or `generation_config`) or the top
// level; field names in snake_case or camelCase alike.
import { asText, type Dict, int, isDict, num, stops, str } from './looseValues.js';
import type { DraftMessage, DraftParams, PlaygroundDraft } from './playgroundDraft.js';

/** A field by its snake_case name or its camelCase twin. */
const field = (d: Dict | null, snake: string): unknown =>
  d === null ? undefined : (d[snake] ?? d[snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())]);

interface Content {
  role: string;
  parts: unknown[];
}

function contentsOf(v: unknown): Content[] {
  if (typeof v === 'string') return [{ role: 'user', parts: [{ text: v }] }];
  if (isDict(v))
    return Array.isArray(v.parts) ? [{ role: str(v.role) ?? 'user', parts: v.parts }] : [{ role: 'user', parts: [v] }];
  if (!Array.isArray(v)) return [];
  // A list of Contents, or a list of parts (strings among them) that make one user turn.
  if (v.some((c) => isDict(c) && Array.isArray(c.parts))) return v.flatMap(contentsOf);
  return [{ role: 'user', parts: v.map((p) => (typeof p === 'string' ? { text: p } : p)) }];
}

const textOfParts = (parts: unknown[]): string =>
  parts
    .map((p) => (typeof p === 'string' ? p : isDict(p) && typeof p.text === 'string' && !p.thought ? p.text : ''))
    .filter((t) => t !== '')
    .join('\n');

function messagesOf(contents: Content[]): DraftMessage[] {
  const out: DraftMessage[] = [];
  /** Call ids not yet answered, by function name. */
  const pending = new Map<string, string[]>();
  let n = 0;
  for (const c of contents) {
    const texts: string[] = [];
    const media: unknown[] = [];
    const asked: NonNullable<DraftMessage['tool_calls']> = [];
    const answers: DraftMessage[] = [];
    for (const p of c.parts) {
      if (typeof p === 'string') texts.push(p);
      if (!isDict(p) || p.thought === true) continue;
      const call = field(p, 'function_call');
      const response = field(p, 'function_response');
      const inline = field(p, 'inline_data');
      if (typeof p.text === 'string') texts.push(p.text);
      else if (isDict(call)) {
        const name = str(call.name) ?? '';
        const id = str(call.id) ?? `call_${++n}`;
        pending.set(name, [...(pending.get(name) ?? []), id]);
        asked.push({ id, name, arguments: JSON.stringify(call.args ?? {}) });
      } else if (isDict(response)) {
        const name = str(response.name) ?? '';
        const id = str(response.id) ?? pending.get(name)?.shift() ?? '';
        answers.push({ role: 'tool', content: asText(response.response ?? null), tool_call_id: id });
      } else if (isDict(inline) && typeof inline.data === 'string') {
        const mime = str(field(inline, 'mime_type')) ?? 'application/octet-stream';
        media.push({ type: 'image_url', image_url: { url: `data:${mime};base64,${inline.data}` } });
      }
    }
    const role = c.role === 'model' || c.role === 'assistant' ? 'assistant' : 'user';
    out.push(...answers);
    if (role === 'assistant') {
      const m: DraftMessage = { role, content: texts.join('\n') };
      out.push(asked.length > 0 ? { ...m, tool_calls: asked } : m);
    } else if (texts.length > 0 || media.length > 0 || answers.length === 0) {
      out.push(
        media.length > 0 ? { role, content: texts.join('\n'), parts: media } : { role, content: texts.join('\n') },
      );
    }
  }
  return out;
}

function systemOf(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join('\n');
  return textOfParts(contentsOf(v).flatMap((c) => c.parts));
}

function paramsOf(config: Dict | null): DraftParams {
  const json = field(config, 'response_mime_type') === 'application/json';
  return {
    temperature: num(field(config, 'temperature')),
    max_tokens: int(field(config, 'max_output_tokens')),
    top_p: num(field(config, 'top_p')),
    stop: stops(field(config, 'stop_sequences')),
    seed: int(field(config, 'seed')),
    response_format: json ? { type: 'json_object' } : null,
  };
}

function toolsOf(v: unknown): unknown[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isDict).flatMap((t) => {
    const declared = field(t, 'function_declarations');
    return (Array.isArray(declared) ? declared.filter(isDict) : []).map((f) => ({
      type: 'function',
      function: {
        name: str(f.name) ?? '',
        ...(typeof f.description === 'string' ? { description: f.description } : {}),
        parameters: field(f, 'parameters') ?? field(f, 'parameters_json_schema') ?? { type: 'object', properties: {} },
      },
    }));
  });
}

function modelOf(inputs: Dict): string | null {
  const self = isDict(inputs.self) ? inputs.self : null;
  const model = str(inputs.model) ?? str(field(self, 'model_name')) ?? str(self?._model_name ?? null);
  return model === null ? null : model.replace(/^models\//, '');
}

export function geminiToPlayground(inputs: Dict): PlaygroundDraft {
  const raw = inputs.config ?? field(inputs, 'generation_config');
  const config = isDict(raw) ? raw : null;
  const system = systemOf(field(inputs, 'system_instruction') ?? field(config, 'system_instruction'));
  const messages = messagesOf(contentsOf(inputs.contents));
  return {
    messages: system === '' ? messages : [{ role: 'system', content: system }, ...messages],
    model: modelOf(inputs),
    params: paramsOf(config),
    tools: toolsOf(field(config, 'tools') ?? inputs.tools),
    prompt: null,
    templateVars: {},
  };
}

// A completion's messages with Weave's prompt resolution (weave-objects.md §9.4): the stored
// MessagesPrompt's messages before the request's own, then `template_vars` filled into every
// message that is not the assistant's, the way Python's str.format fills `{name}` (`{{` and
// `}}` are literal braces). A brace that is not a placeholder is left as written, where
// str.format would fail; a placeholder without a value fails, as Weave's does.
import type { ObjectStore } from '../../storage/objects/object-store.js';
import { tryParseRef } from '../refs/refs.js';
import { parseSelector } from '../objects/object-names.js';
import { CompletionSetupError } from './model-route.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `{name}` or `{name:spec}` / `{name!r}` (conversion and spec are not applied), or an escaped brace. */
const FIELD = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}/g;

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export function fillTemplate(text: string, vars: Readonly<Dict>): string {
  return text.replace(FIELD, (whole, name: string | undefined) => {
    if (name === undefined) return whole[0]!;
    if (!Object.hasOwn(vars, name)) throw new CompletionSetupError(`Missing template variable: ${name}`);
    return show(vars[name]);
  });
}

function fillContent(content: unknown, vars: Readonly<Dict>): unknown {
  if (typeof content === 'string') return fillTemplate(content, vars);
  if (Array.isArray(content)) return content.map((part) => fillContent(part, vars));
  if (isDict(content)) return Object.fromEntries(Object.entries(content).map(([k, v]) => [k, fillContent(v, vars)]));
  return content;
}

/** The object a prompt reference names: `weave:///e/p/object/name:digest`, `name:version` or `name`. */
function promptAddress(projectId: string, prompt: string) {
  if (prompt.startsWith('weave')) {
    const ref = tryParseRef(prompt);
    if (ref === null || ref.kind !== 'object') throw new CompletionSetupError(`Invalid prompt ref: ${prompt}`);
    if (ref.projectId !== projectId)
      throw new CompletionSetupError(`The prompt ${prompt} is not of project ${projectId}`);
    return { name: ref.name, selector: parseSelector(ref.digest) };
  }
  const colon = prompt.lastIndexOf(':');
  if (colon < 0) return { name: prompt, selector: parseSelector('latest') };
  return { name: prompt.slice(0, colon), selector: parseSelector(prompt.slice(colon + 1)) };
}

async function promptMessages(objects: ObjectStore, projectId: string, prompt: string): Promise<unknown[]> {
  const { name, selector } = promptAddress(projectId, prompt);
  const v = await objects.read(projectId, name, selector, { metadataOnly: false, includeLabels: false });
  if (v === null || v.deleted_at !== null || v.val === null)
    throw new CompletionSetupError(`Prompt ${prompt} not found in ${projectId}`);
  const classes = [v.base_object_class, v.leaf_object_class];
  if (!classes.includes('Prompt') && !classes.includes('MessagesPrompt'))
    throw new CompletionSetupError(`${prompt} is not a Prompt (it is a ${v.leaf_object_class ?? 'plain object'})`);
  const val = JSON.parse(v.val) as Dict;
  if (!Array.isArray(val.messages))
    throw new CompletionSetupError(`${prompt} holds no messages: only a MessagesPrompt can lead a completion`);
  return val.messages;
}

/** The messages sent to the model. */
export async function resolveMessages(
  objects: ObjectStore,
  projectId: string,
  inputs: { messages?: unknown[]; prompt?: string | null; template_vars?: Dict | null },
): Promise<Dict[]> {
  const own = inputs.messages ?? [];
  const all = inputs.prompt ? [...(await promptMessages(objects, projectId, inputs.prompt)), ...own] : own;
  const vars = inputs.template_vars;
  return all.map((m, i) => {
    if (!isDict(m)) throw new CompletionSetupError(`messages[${i}] is not an object`);
    if (vars === null || vars === undefined || m.role === 'assistant') return m;
    return { ...m, content: fillContent(m.content, vars) };
  });
}

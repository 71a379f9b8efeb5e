// Weave ref strings (weave-api.md §3.4), in the external form Weft stores:
//   weave:///<entity>/<project>/object/<name>:<digest>[/<edge>/<value>]*
//   weave:///<entity>/<project>/op/<name>:<digest>[/<edge>/<value>]*
//   weave:///<entity>/<project>/table/<digest>[/...]
//   weave:///<entity>/<project>/call/<call_id>[/...]
//   weave:///<entity>/<project>/agent_turn/<trace_id>
//   weave:///<entity>/<project>/agent_span/<span_id>
//   weave:///<entity>/<project>/agent_conversation/<conversation_id>
// Names and digests may contain neither '/' nor ':'. Extra edge values are
// percent-encoded in the URI and decoded here. Weft keeps external project ids, so
// the project of a ref is "<entity>/<project>" and compares directly with project_id.
import { InvalidRequestError } from '../../api/errors.js';

export const WEAVE_REF_PREFIX = 'weave:///';

/** Edge names allowed in the extra path of object and op refs. */
export const EDGE_NAMES = ['key', 'index', 'attr', 'id'] as const;

interface RefBase {
  readonly entity: string;
  readonly project: string;
  /** "<entity>/<project>", the form of a request's project_id. */
  readonly projectId: string;
  /** Decoded extra path parts: alternating edge names and values. */
  readonly extra: readonly string[];
}

export interface ObjectRef extends RefBase {
  readonly kind: 'object' | 'op';
  readonly name: string;
  readonly digest: string;
}

export interface TableRef extends RefBase {
  readonly kind: 'table';
  readonly digest: string;
}

export interface CallRef extends RefBase {
  readonly kind: 'call';
  readonly id: string;
}

/**
 * Feedback targets on agent data (agents.md §1.3): a turn (one trace), one span (a step), or
 * a conversation. The id is percent-decoded; a conversation id may hold '/' (Weave quotes it
 * with '/' kept), a trace or span id is one path segment.
 */
export interface AgentRef extends RefBase {
  readonly kind: AgentRefKind;
  readonly id: string;
}
export const AGENT_REF_KINDS = ['agent_turn', 'agent_span', 'agent_conversation'] as const;
export type AgentRefKind = (typeof AGENT_REF_KINDS)[number];

export type WeaveRef = ObjectRef | TableRef | CallRef | AgentRef;
export type RefKind = WeaveRef['kind'];

/** Why a string is not a ref; thrown by parseRef, answered as 400 by the error handler. */
export class InvalidRefError extends InvalidRequestError {
  constructor(uri: string, reason: string) {
    super(`Invalid ref: ${uri}, ${reason}`);
  }
}

/** True when `s` is meant as a Weave ref (whether or not it parses). */
export function looksLikeRef(s: string): boolean {
  return s.startsWith(WEAVE_REF_PREFIX);
}

/** Parses an external Weave ref; throws InvalidRefError (400) when `uri` is not one. */
export function parseRef(uri: string): WeaveRef {
  if (!looksLikeRef(uri)) throw new InvalidRefError(uri, `must start with ${WEAVE_REF_PREFIX}`);
  const parts = uri.slice(WEAVE_REF_PREFIX.length).split('/');
  const [entity, project, kind, head, ...rest] = parts;
  if (!entity || !project) throw new InvalidRefError(uri, 'must name an entity and a project');
  if (kind === undefined || head === undefined || head === '')
    throw new InvalidRefError(uri, 'must have a kind and an identifier');
  const base = { entity, project, projectId: `${entity}/${project}` };
  switch (kind) {
    case 'object':
    case 'op': {
      const nv = head.split(':');
      if (nv.length !== 2 || !nv[0] || !nv[1]) throw new InvalidRefError(uri, 'expected <name>:<digest>');
      return { kind, ...base, name: nv[0], digest: nv[1], extra: objectExtra(uri, rest) };
    }
    case 'table':
      // The TS SDK sends row refs as table/<digest>/id/<row>: the tail is kept, unchecked.
      return { kind, ...base, digest: head, extra: decodeParts(uri, trimTrailing(rest)) };
    case 'call':
      return { kind, ...base, id: head, extra: decodeParts(uri, trimTrailing(rest)) };
    case 'agent_turn':
    case 'agent_span':
    case 'agent_conversation': {
      const tail = trimTrailing(rest);
      if (kind !== 'agent_conversation' && tail.length > 0)
        throw new InvalidRefError(uri, `an ${kind} ref has one identifier and no extra path`);
      const id = decodeParts(uri, [[head, ...tail].join('/')])[0]!;
      if (id === '') throw new InvalidRefError(uri, 'must have a kind and an identifier');
      return { kind, ...base, id, extra: [] };
    }
    default:
      throw new InvalidRefError(uri, `unknown ref kind ${JSON.stringify(kind)}`);
  }
}

/** Like parseRef, but null instead of an error. */
export function tryParseRef(uri: string): WeaveRef | null {
  try {
    return parseRef(uri);
  } catch (err) {
    if (err instanceof InvalidRefError) return null;
    throw err;
  }
}

/** The canonical URI of a parsed ref (extra values percent-encoded). */
export function refUri(ref: WeaveRef): string {
  let head: string;
  switch (ref.kind) {
    case 'object':
    case 'op':
      head = `${ref.kind}/${ref.name}:${ref.digest}`;
      break;
    case 'table':
      head = `table/${ref.digest}`;
      break;
    case 'call':
      head = `call/${ref.id}`;
      break;
    case 'agent_turn':
    case 'agent_span':
    case 'agent_conversation':
      return agentRefUri(ref.projectId, ref.kind, ref.id);
  }
  const extra = ref.extra.map((e) => `/${encodeURIComponent(e)}`).join('');
  return `${WEAVE_REF_PREFIX}${ref.projectId}/${head}${extra}`;
}

/**
 * The ref of an agent target as Weave writes it (Python's urllib quote: every byte but
 * letters, digits, '_.-~' and '/' percent-encoded), so a ref Weft builds to look feedback up
 * equals the one a Weave client sends.
 */
export function agentRefUri(projectId: string, kind: AgentRefKind, id: string): string {
  const quoted = encodeURIComponent(id)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, '/');
  return `${WEAVE_REF_PREFIX}${projectId}/${kind}/${quoted}`;
}

function trimTrailing(rest: string[]): string[] {
  return rest.length === 1 && rest[0] === '' ? [] : rest;
}

function decodeParts(uri: string, parts: string[]): string[] {
  return parts.map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      throw new InvalidRefError(uri, `bad percent-encoding in ${JSON.stringify(p)}`);
    }
  });
}

/** Extra path of object/op refs: <edge>/<value> pairs; index values are integers. */
function objectExtra(uri: string, rest: string[]): string[] {
  const extra = decodeParts(uri, trimTrailing(rest));
  if (extra.length % 2 !== 0) throw new InvalidRefError(uri, 'extra path must be <edge>/<value> pairs');
  for (let i = 0; i < extra.length; i += 2) {
    const edge = extra[i]!;
    if (!(EDGE_NAMES as readonly string[]).includes(edge))
      throw new InvalidRefError(uri, `unknown edge ${JSON.stringify(edge)}`);
    if (edge === 'index' && !/^-?\d+$/.test(extra[i + 1]!))
      throw new InvalidRefError(uri, 'index edge needs an integer');
  }
  return extra;
}

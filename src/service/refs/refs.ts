// Weave ref strings (weave-api.md §3.4), in the external form Weft stores:
//   weave:///<entity>/<project>/object/<name>:<digest>[/<edge>/<value>]*
//   weave:///<entity>/<project>/op/<name>:<digest>[/<edge>/<value>]*
//   weave:///<entity>/<project>/table/<digest>[/...]
//   weave:///<entity>/<project>/call/<call_id>[/...]
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

export type WeaveRef = ObjectRef | TableRef | CallRef;
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
  }
  const extra = ref.extra.map((e) => `/${encodeURIComponent(e)}`).join('');
  return `${WEAVE_REF_PREFIX}${ref.projectId}/${head}${extra}`;
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

// The rules a feedback must satisfy beyond its schema (weave-api.md §3.7, after
// Weave's feedback.py), and the payload processing done before it is stored.
// All failures are InvalidRequestError (400). Nothing here reads storage: the
// referenced call, op or object need not exist yet (the SDK sends feedback before
// the calls it refers to).
import { encodeJson } from '../json/json-text.js';
import type { FeedbackCreateReq } from '../../api/feedback.js';
import { InvalidRequestError } from '../../api/errors.js';
import { analyzeReactionEmoji } from './feedback-emoji.js';
import { parseRef, type RefKind, type WeaveRef } from '../refs/refs.js';

export const REACTION_TYPE = 'wandb.reaction.1';
export const NOTE_TYPE = 'wandb.note.1';
export const ANNOTATION_PREFIX = 'wandb.annotation';
export const RUNNABLE_PREFIX = 'wandb.runnable';
export const MAX_NOTE_CHARS = 1024;
/** Largest JSON-encoded processed payload, in UTF-8 bytes. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

type RefField = 'weave_ref' | 'annotation_ref' | 'runnable_ref' | 'call_ref' | 'trigger_ref';

/** Which ref kinds each ref field accepts. */
const REF_KINDS: Readonly<Record<RefField, readonly RefKind[]>> = {
  weave_ref: ['object', 'op', 'table', 'call', 'agent_turn', 'agent_span', 'agent_conversation'],
  annotation_ref: ['object'],
  runnable_ref: ['op', 'object'],
  call_ref: ['call'],
  trigger_ref: ['object'],
};

/** The part after "<prefix>." of a reserved family type; 400 when the dot is missing. */
function subname(feedbackType: string, prefix: string, family: string): string {
  if (!feedbackType.startsWith(`${prefix}.`))
    throw new InvalidRequestError(`Invalid ${family} feedback type: ${feedbackType}`);
  return feedbackType.slice(prefix.length + 1);
}

const withArticle = (word: string): string => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/** Parses a ref field, checking its kind and that it lies in the request's project. */
function checkRef(req: FeedbackCreateReq, field: RefField): WeaveRef | null {
  const uri = req[field];
  if (uri === null || uri === undefined) return null;
  const ref = parseRef(uri);
  const kinds = REF_KINDS[field];
  if (!kinds.includes(ref.kind)) {
    throw new InvalidRequestError(
      `Invalid ref: ${uri}, ${field} must be ${withArticle(kinds.join(' or '))} ref, not ${withArticle(ref.kind)} ref`,
    );
  }
  if (ref.projectId !== req.project_id) {
    throw new InvalidRequestError(`${field} ${uri} does not match project id ${req.project_id}`);
  }
  return ref;
}

function invalidPayload(req: FeedbackCreateReq, why: string): InvalidRequestError {
  return new InvalidRequestError(`Invalid payload for feedback_type ${req.feedback_type}: ${why}`);
}

/** Payload schemas of the fixed reserved types (extra payload keys are allowed). */
function checkReservedPayload(req: FeedbackCreateReq): void {
  const p = req.payload;
  if (req.feedback_type === REACTION_TYPE && typeof p.emoji !== 'string') {
    throw invalidPayload(req, 'emoji is required and must be a string');
  }
  if (req.feedback_type === NOTE_TYPE) {
    if (typeof p.note !== 'string') throw invalidPayload(req, 'note is required and must be a string');
    const chars = [...p.note].length;
    if (chars < 1 || chars > MAX_NOTE_CHARS)
      throw invalidPayload(req, `note must have 1 to ${MAX_NOTE_CHARS} characters, got ${chars}`);
  }
}

function checkAnnotation(req: FeedbackCreateReq): void {
  const name = subname(req.feedback_type, ANNOTATION_PREFIX, 'annotation');
  if (!req.annotation_ref) throw new InvalidRequestError('annotation_ref is required for annotation feedback');
  const ref = checkRef(req, 'annotation_ref')!;
  if (ref.kind !== 'object' || ref.name !== name)
    throw new InvalidRequestError(`annotation_ref must point to an object with name ${name}`);
  if (!('value' in req.payload)) throw invalidPayload(req, 'value is required');
  // Not checked: that payload.value is valid for the AnnotationSpec the ref names
  // (Weave reads the spec through refs/read_batch; Weft does not read objects here).
}

function checkRunnable(req: FeedbackCreateReq): void {
  const name = subname(req.feedback_type, RUNNABLE_PREFIX, 'runnable');
  if (!req.runnable_ref) throw new InvalidRequestError('runnable_ref is required for runnable feedback');
  const ref = checkRef(req, 'runnable_ref')!;
  if (ref.kind !== 'op' && ref.kind !== 'object')
    throw new InvalidRequestError('runnable_ref must be an op or object ref');
  if (ref.name !== name) throw new InvalidRequestError(`runnable_ref must point to an object with name ${name}`);
  // The SDK's EvaluationLogger scores with an object runnable_ref plus a call_ref: fine.
  if (ref.kind === 'op' && !req.call_ref)
    throw new InvalidRequestError('call_ref is required for runnable feedback on ops');
  if (!('output' in req.payload)) throw invalidPayload(req, 'output is required');
}

/**
 * Throws InvalidRequestError when the feedback breaks a rule:
 * - wandb.reaction.1: payload {emoji: string}; wandb.note.1: payload {note} of 1..1024 chars;
 * - wandb.annotation.<name>: annotation_ref (object ref named <name>) and payload {value};
 * - wandb.runnable.<name>: runnable_ref (op or object ref named <name>), call_ref when it is
 *   an op ref, payload {output};
 * - annotation_ref only on annotation types; runnable_ref, call_ref, trigger_ref only on
 *   runnable types and wandb.agent_monitor;
 * - weave_ref may also name agent data: agent_turn, agent_span, agent_conversation refs;
 * - every ref field parses as its kind of ref and lies in the request's project;
 * - scorer_* fields only on wandb.runnable.*, wandb.agent_monitor and wandb.agent_user_feedback
 *   (which needs scorer_tags), as the newest Weave allows them.
 */
export function validateFeedbackCreate(req: FeedbackCreateReq): void {
  checkReservedPayload(req);
  const isAnnotation = req.feedback_type.startsWith(ANNOTATION_PREFIX);
  const isRunnable = req.feedback_type.startsWith(RUNNABLE_PREFIX);
  if (isAnnotation) checkAnnotation(req);
  else if (req.annotation_ref)
    throw new InvalidRequestError('annotation_ref is not allowed for non-annotation feedback');
  if (isRunnable) checkRunnable(req);
  else if (req.feedback_type !== AGENT_MONITOR_TYPE) {
    // An agent monitor's result names its scorer (runnable_ref), the monitor (trigger_ref) and
    // the scoring call (call_ref), as Weave's agent tests write it; their kinds are checked below.
    for (const field of ['runnable_ref', 'call_ref', 'trigger_ref'] as const) {
      if (req[field]) throw new InvalidRequestError(`${field} is not allowed for non-runnable feedback`);
    }
  }
  for (const field of Object.keys(REF_KINDS) as RefField[]) {
    if (field === 'weave_ref' || req[field]) checkRef(req, field);
  }
  checkScorerFields(req, isRunnable);
}

const SCORER_FIELDS = [
  'scorer_tags',
  'scorer_tag_reasons',
  'scorer_tag_confidences',
  'scorer_ratings',
  'scorer_rating_reasons',
  'scorer_rating_confidences',
] as const;
export const AGENT_MONITOR_TYPE = 'wandb.agent_monitor';
export const AGENT_USER_FEEDBACK_TYPE = 'wandb.agent_user_feedback';

/** Weave's rule: scorer_* only on runnable, agent-monitor and agent-user feedback; user feedback needs its tags. */
function checkScorerFields(req: FeedbackCreateReq, isRunnable: boolean): void {
  const set = (f: (typeof SCORER_FIELDS)[number]) => {
    const v = req[f];
    return v != null && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
  };
  const allowed =
    isRunnable || req.feedback_type === AGENT_MONITOR_TYPE || req.feedback_type === AGENT_USER_FEEDBACK_TYPE;
  if (!allowed && SCORER_FIELDS.some(set)) {
    throw new InvalidRequestError(
      'scorer_tags, scorer_tag_reasons, scorer_tag_confidences, scorer_ratings, scorer_rating_reasons, and scorer_rating_confidences are only allowed on wandb.agent_monitor, wandb.agent_user_feedback, or wandb.runnable feedback',
    );
  }
  if (req.feedback_type === AGENT_USER_FEEDBACK_TYPE && !set('scorer_tags')) {
    throw new InvalidRequestError('scorer_tags is required for agent user feedback');
  }
}

/**
 * The payload as stored and returned: reactions gain alias, detoned and detoned_alias.
 * Throws when a reaction is not exactly one emoji or the result exceeds MAX_PAYLOAD_BYTES.
 */
export function processFeedbackPayload(req: FeedbackCreateReq): Record<string, unknown> {
  let payload: Record<string, unknown> = { ...req.payload };
  if (req.feedback_type === REACTION_TYPE) {
    const extras = analyzeReactionEmoji(String(req.payload.emoji));
    if (!extras) throw new InvalidRequestError('Value of emoji key in payload must be exactly one emoji');
    payload = { ...payload, ...extras };
  }
  if (Buffer.byteLength(encodeJson(payload, 'payload'), 'utf8') > MAX_PAYLOAD_BYTES) {
    throw new InvalidRequestError('Feedback payload too large');
  }
  return payload;
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FeedbackCreateReq } from '../../api/feedback.js';
import { InvalidRequestError } from '../../api/errors.js';
import { MAX_PAYLOAD_BYTES, processFeedbackPayload, validateFeedbackCreate } from './feedback-validate.js';

const P = 'ent/proj';
const CALL = `weave:///${P}/call/c1`;
const base = (over: Partial<FeedbackCreateReq>): FeedbackCreateReq => ({
  project_id: P,
  weave_ref: CALL,
  feedback_type: 'custom',
  payload: {},
  ...over,
});
const rejects = (req: FeedbackCreateReq, msg: RegExp) =>
  assert.throws(
    () => validateFeedbackCreate(req),
    (e: unknown) => e instanceof InvalidRequestError && msg.test(e.message),
    msg.source,
  );

test('free types with any payload pass; weave_ref may be any ref kind of the project', () => {
  for (const ref of [CALL, `weave:///${P}/object/o:d`, `weave:///${P}/op/o:d`, `weave:///${P}/table/t`]) {
    validateFeedbackCreate(base({ weave_ref: ref, payload: { anything: [1, { x: null }] } }));
  }
  rejects(base({ weave_ref: 'nope' }), /Invalid ref: nope/);
  rejects(base({ weave_ref: 'weave:///other/proj/call/c1' }), /does not match project id/);
});

test('reactions need an emoji string; notes 1..1024 characters', () => {
  validateFeedbackCreate(base({ feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } }));
  rejects(
    base({ feedback_type: 'wandb.reaction.1', payload: {} }),
    /Invalid payload for feedback_type wandb.reaction.1/,
  );
  rejects(base({ feedback_type: 'wandb.reaction.1', payload: { emoji: 5 } }), /emoji/);
  validateFeedbackCreate(base({ feedback_type: 'wandb.note.1', payload: { note: 'x'.repeat(1024) } }));
  validateFeedbackCreate(base({ feedback_type: 'wandb.note.1', payload: { note: '😀'.repeat(1024) } }));
  rejects(base({ feedback_type: 'wandb.note.1', payload: { note: '' } }), /1 to 1024/);
  rejects(base({ feedback_type: 'wandb.note.1', payload: { note: 'x'.repeat(1025) } }), /1 to 1024/);
  rejects(base({ feedback_type: 'wandb.note.1', payload: {} }), /note is required/);
});

test('annotations: object annotation_ref named like the type, in the project, payload {value}', () => {
  const ok = base({
    feedback_type: 'wandb.annotation.quality',
    annotation_ref: `weave:///${P}/object/quality:d`,
    payload: { value: 3 },
  });
  validateFeedbackCreate(ok);
  validateFeedbackCreate({ ...ok, payload: { value: null } });
  rejects({ ...ok, annotation_ref: null }, /annotation_ref is required/);
  rejects({ ...ok, annotation_ref: `weave:///${P}/object/other:d` }, /name quality/);
  rejects({ ...ok, annotation_ref: `weave:///${P}/op/quality:d` }, /must be an object ref/);
  rejects({ ...ok, annotation_ref: `weave:///x/y/object/quality:d` }, /does not match project id/);
  rejects({ ...ok, payload: { v: 1 } }, /value is required/);
  rejects({ ...ok, feedback_type: 'wandb.annotation' }, /Invalid annotation feedback type/);
  rejects({ ...ok, call_ref: CALL }, /call_ref is not allowed/);
  rejects(
    base({ annotation_ref: `weave:///${P}/object/quality:d` }),
    /annotation_ref is not allowed for non-annotation feedback/,
  );
});

test('runnables: op refs need call_ref; object refs (EvaluationLogger) may carry one', () => {
  const op = base({
    feedback_type: 'wandb.runnable.score',
    runnable_ref: `weave:///${P}/op/score:d`,
    call_ref: `weave:///${P}/call/s1`,
    payload: { output: 1 },
  });
  validateFeedbackCreate(op);
  validateFeedbackCreate({ ...op, runnable_ref: `weave:///${P}/object/score:d` });
  validateFeedbackCreate({ ...op, runnable_ref: `weave:///${P}/object/score:d`, call_ref: null });
  validateFeedbackCreate({ ...op, trigger_ref: `weave:///${P}/object/trig:d` });
  rejects({ ...op, call_ref: null }, /call_ref is required for runnable feedback on ops/);
  rejects({ ...op, runnable_ref: null }, /runnable_ref is required/);
  rejects({ ...op, runnable_ref: `weave:///${P}/op/other:d` }, /name score/);
  rejects({ ...op, runnable_ref: `weave:///${P}/call/x` }, /runnable_ref must be an op or object ref/);
  rejects({ ...op, call_ref: `weave:///${P}/object/x:d` }, /call_ref must be a call ref/);
  rejects({ ...op, call_ref: `weave:///o/p/call/x` }, /call_ref .* does not match project id/);
  rejects({ ...op, trigger_ref: `weave:///${P}/op/trig:d` }, /trigger_ref must be an object ref/);
  rejects({ ...op, payload: { out: 1 } }, /output is required/);
  rejects({ ...op, feedback_type: 'wandb.runnable' }, /Invalid runnable feedback type/);
});

test('runnable_ref, call_ref, trigger_ref are refused on other types', () => {
  rejects(base({ runnable_ref: `weave:///${P}/op/s:d` }), /runnable_ref is not allowed for non-runnable feedback/);
  rejects(base({ call_ref: CALL }), /call_ref is not allowed/);
  rejects(base({ trigger_ref: `weave:///${P}/object/t:d` }), /trigger_ref is not allowed/);
});

test('processing adds reaction extras, refuses non-single emoji and payloads over 1 MiB', () => {
  const r = base({ feedback_type: 'wandb.reaction.1', payload: { emoji: '👍🏽', extra: 1 } });
  assert.deepEqual(processFeedbackPayload(r), {
    emoji: '👍🏽',
    extra: 1,
    alias: ':thumbs_up_medium_skin_tone:',
    detoned: '👍',
    detoned_alias: ':thumbs_up:',
  });
  assert.throws(
    () => processFeedbackPayload({ ...r, payload: { emoji: '👍👍' } }),
    /Value of emoji key in payload must be exactly one emoji/,
  );
  assert.throws(() => processFeedbackPayload({ ...r, payload: { emoji: 'ok' } }), /exactly one emoji/);
  const big = base({ payload: { s: 'x'.repeat(MAX_PAYLOAD_BYTES) } });
  assert.throws(() => processFeedbackPayload(big), /Feedback payload too large/);
  const fits = base({ payload: { s: 'x'.repeat(MAX_PAYLOAD_BYTES - 8) } });
  assert.deepEqual(processFeedbackPayload(fits), fits.payload);
});

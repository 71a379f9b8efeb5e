// The v2 call write routes the newest Python SDK uses by default (its calls_complete mode):
// whole finished calls in batches, and eager single starts and ends. The entity and project
// come from the path; every item's project_id must name the same project.
import { Type, type Static } from 'typebox';
import { AnyObject, DateTime, EmptyRes, Nullable, SafeInteger, Strict } from './common.js';
import {
  CallStartReq,
  CallStartRes,
  EndedCallSchemaForInsert,
  StartedCallSchemaForInsert,
  SummaryInsertMap,
} from './calls.js';
import { DataList } from './limits.js';
import { defineRoute } from './route-spec.js';

export const ProjectPath = Type.Object({
  entity: Type.String({ minLength: 1 }),
  project: Type.String({ minLength: 1 }),
});
export type ProjectPath = Static<typeof ProjectPath>;

/** One finished call: a start and an end together (Weave's CompletedCallSchemaForInsert). */
export const CompletedCallSchemaForInsert = Type.Object({
  ...StartedCallSchemaForInsert.properties,
  id: Type.String({ minLength: 1 }),
  trace_id: Type.String({ minLength: 1 }),
  ended_at: DateTime,
  exception: EndedCallSchemaForInsert.properties.exception,
  output: EndedCallSchemaForInsert.properties.output,
  summary: Nullable(SummaryInsertMap),
  wb_run_step_end: Nullable(SafeInteger()),
  attributes: AnyObject,
  inputs: AnyObject,
});
export type CompletedCallSchemaForInsert = Static<typeof CompletedCallSchemaForInsert>;

export const CallsCompleteReq = Strict({ batch: DataList(CompletedCallSchemaForInsert) });
export type CallsCompleteReq = Static<typeof CallsCompleteReq>;

/** An eager end carries its call's start time too (calls_complete mode). */
export const CallEndV2Req = Strict({
  end: Type.Object({ ...EndedCallSchemaForInsert.properties, started_at: Nullable(DateTime) }),
});
export type CallEndV2Req = Static<typeof CallEndV2Req>;

const tag = 'Calls';
export const callsV2Routes = {
  callsComplete: defineRoute({
    access: 'write',
    id: 'calls_complete',
    method: 'POST',
    path: '/v2/:entity/:project/calls/complete',
    tag,
    summary: 'Write finished calls (start and end together) in one batch',
    params: ProjectPath,
    carriesData: true,
    body: CallsCompleteReq,
    response: EmptyRes,
    errors: [400, 413, 503],
  }),
  callStartV2: defineRoute({
    access: 'write',
    id: 'call_start_v2',
    method: 'POST',
    path: '/v2/:entity/:project/call/start',
    tag,
    summary: 'Start a call (eager op)',
    params: ProjectPath,
    carriesData: true,
    body: CallStartReq,
    response: CallStartRes,
    errors: [400, 503],
  }),
  callEndV2: defineRoute({
    access: 'write',
    id: 'call_end_v2',
    method: 'POST',
    path: '/v2/:entity/:project/call/end',
    tag,
    summary: 'End a call (eager op)',
    params: ProjectPath,
    carriesData: true,
    body: CallEndV2Req,
    response: EmptyRes,
    errors: [400, 503],
  }),
} as const;

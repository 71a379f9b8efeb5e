// What a remote scorer is sent about its target (agents.md §4.7): a call as schema version 1's
// `original_call`, an agent turn as version 2's `scoring_target` (type `agent_turn`, payload
// version 1) built from the turn's root span. Messages go as `{role, content, finish_reason}`,
// content the text of the message's text parts, or the JSON of its parts when it has others.
import type { SpanRow } from '../../query/span-columns.js';
import type { StoredCall } from '../../storage/calls/call-store.js';
import { formatTimestamp } from '../../time.js';
import { turnRoot } from '../agents/chat-view.js';
import type { RemoteTarget } from './remote-scorer.js';
import { jsonList } from './turn-vars.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
const iso = (us: string | number | null | undefined) =>
  us === null || us === undefined ? null : formatTimestamp(Number(us));
const str = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? null : String(v));

export function callTarget(call: StoredCall): RemoteTarget {
  return {
    schemaVersion: 1,
    body: {
      original_call: {
        project_id: call.project_id,
        call_id: call.id,
        trace_id: call.trace_id,
        op_name: call.op_name,
        inputs: parsed(call.inputs),
        output: parsed(call.output),
        started_at: iso(call.started_at),
        ended_at: iso(call.ended_at),
      },
    },
  };
}

function message(m: unknown): Dict {
  if (!isDict(m)) return { role: null, content: String(m), finish_reason: null };
  const parts = Array.isArray(m.parts) ? m.parts : null;
  const texts = parts?.every((p) => isDict(p) && p.type === 'text')
    ? parts.map((p) => String((p as Dict).content ?? ''))
    : null;
  const content = parts === null ? (m.content ?? null) : texts !== null ? texts.join('\n') : JSON.stringify(parts);
  return { role: m.role ?? null, content, finish_reason: m.finish_reason ?? null };
}

const partText = (p: unknown) => (isDict(p) && typeof p.content === 'string' ? p.content : JSON.stringify(p));

export function turnTarget(rows: readonly SpanRow[]): RemoteTarget {
  const root = turnRoot(rows)!;
  const code = String(root.status_code ?? 'UNSET').replace(/^STATUS_CODE_/, '');
  return {
    schemaVersion: 2,
    body: {
      scoring_target: {
        type: 'agent_turn',
        schema_version: 1,
        payload: {
          event_type: 'weave.genai.turn_ended',
          project_id: root.project_id,
          trace_id: root.trace_id,
          span_id: root.span_id,
          span_name: root.span_name,
          operation_name: str(root.operation_name),
          started_at: iso(root.started_at),
          ended_at: iso(root.ended_at),
          conversation: { id: str(root.conversation_id), name: str(root.conversation_name) },
          agent: {
            name: str(root.agent_name),
            version: str(root.agent_version),
            description: str(root.agent_description),
          },
          status: { code, message: str(root.status_message), error_type: str(root.error_type) },
          messages: {
            system_instructions: jsonList(root.system_instructions).map(partText),
            input: jsonList(root.input_messages).map(message),
            output: jsonList(root.output_messages).map(message),
          },
        },
      },
    },
  };
}

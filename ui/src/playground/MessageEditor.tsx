// One message of the draft, editable: its role, its text, an assistant's tool calls (name and
// JSON arguments) or the call a tool message answers; moved up or down, or removed.
import { type DraftMessage, type DraftToolCall, ROLES, type Role } from './playgroundDraft';
import styles from './Playground.module.css';

interface Props {
  message: DraftMessage;
  index: number;
  count: number;
  onChange: (m: DraftMessage) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

const rows = (text: string) => Math.min(14, Math.max(2, text.split('\n').length + 1));

export function MessageEditor({ message: m, index, count, onChange, onMove, onRemove }: Props) {
  const setRole = (role: Role) => {
    const { tool_calls, tool_call_id, ...rest } = m;
    if (role === 'assistant' && tool_calls) onChange({ ...rest, role, tool_calls });
    else if (role === 'tool') onChange({ ...rest, role, tool_call_id: tool_call_id ?? '' });
    else onChange({ ...rest, role });
  };
  return (
    <div className={styles.message} data-testid="draft-message" data-role={m.role} data-index={index}>
      <div className={styles.messageHead}>
        <select
          value={m.role}
          onChange={(e) => setRole(e.target.value as Role)}
          aria-label={`Role of message ${index + 1}`}
          data-testid="message-role"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {m.role === 'tool' && (
          <input
            className={styles.callId}
            value={m.tool_call_id ?? ''}
            placeholder="tool call id"
            aria-label="The tool call this answers"
            onChange={(e) => onChange({ ...m, tool_call_id: e.target.value })}
            data-testid="message-tool-call-id"
          />
        )}
        <span className={styles.spacer} />
        <button type="button" onClick={() => onMove(-1)} disabled={index === 0} aria-label="Move up" title="Move up">
          ↑
        </button>
        <button
          type="button"
          onClick={() => onMove(1)}
          disabled={index === count - 1}
          aria-label="Move down"
          title="Move down"
        >
          ↓
        </button>
        <button
          type="button"
          onClick={onRemove}
          aria-label="Remove message"
          title="Remove"
          data-testid="message-remove"
        >
          ✕
        </button>
      </div>
      <textarea
        className={styles.text}
        value={m.content}
        rows={rows(m.content)}
        placeholder={m.role === 'assistant' && m.tool_calls ? '(no text)' : `${m.role} message`}
        aria-label={`Text of message ${index + 1}`}
        onChange={(e) => onChange({ ...m, content: e.target.value })}
        data-testid="message-content"
      />
      {m.parts && m.parts.length > 0 && (
        <span className={styles.muted}>
          + {m.parts.length} part{m.parts.length === 1 ? '' : 's'} that are not text (images, audio), sent as they came
        </span>
      )}
      {m.role === 'assistant' && (
        <ToolCalls calls={m.tool_calls ?? []} onChange={(tool_calls) => onChange({ ...m, tool_calls })} />
      )}
    </div>
  );
}

function ToolCalls({ calls, onChange }: { calls: DraftToolCall[]; onChange: (c: DraftToolCall[]) => void }) {
  const set = (i: number, patch: Partial<DraftToolCall>) =>
    onChange(calls.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <div className={styles.toolCalls}>
      {calls.map((c, i) => (
        <div key={i} className={styles.toolCall} data-testid="message-tool-call">
          <input
            value={c.name}
            placeholder="function"
            aria-label="Tool name"
            onChange={(e) => set(i, { name: e.target.value })}
          />
          <input
            className={styles.callId}
            value={c.id}
            placeholder="id"
            aria-label="Tool call id"
            onChange={(e) => set(i, { id: e.target.value })}
          />
          <button
            type="button"
            aria-label="Remove tool call"
            onClick={() => onChange(calls.filter((_, j) => j !== i))}
            title="Remove"
          >
            ✕
          </button>
          <textarea
            className={`${styles.text} mono`}
            value={c.arguments}
            rows={rows(c.arguments)}
            aria-label="Tool call arguments (JSON)"
            onChange={(e) => set(i, { arguments: e.target.value })}
          />
        </div>
      ))}
      <button
        type="button"
        className={styles.linkButton}
        onClick={() => onChange([...calls, { id: `call_${Date.now().toString(36)}`, name: '', arguments: '{}' }])}
      >
        + tool call
      </button>
    </div>
  );
}

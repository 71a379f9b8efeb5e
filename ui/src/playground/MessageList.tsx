// The draft's messages, each editable, with a message of any role added at the end.
import { MessageEditor } from './MessageEditor';
import { type DraftMessage, ROLES } from './playgroundDraft';
import styles from './Playground.module.css';

export function MessageList({
  messages,
  onChange,
  afterPrompt,
}: {
  messages: DraftMessage[];
  onChange: (m: DraftMessage[]) => void;
  /** The messages follow a prompt's: said in the empty state. */
  afterPrompt: boolean;
}) {
  const move = (i: number, by: -1 | 1) => {
    const next = [...messages];
    const [m] = next.splice(i, 1);
    next.splice(i + by, 0, m!);
    onChange(next);
  };
  return (
    <section className={styles.section} data-testid="messages">
      <h2>{afterPrompt ? 'Messages after the prompt' : 'Messages'}</h2>
      {messages.length === 0 && (
        <p className={styles.muted}>
          {afterPrompt ? "Only the prompt's messages are sent." : 'No messages yet: add one below.'}
        </p>
      )}
      {messages.map((m, i) => (
        <MessageEditor
          key={i}
          message={m}
          index={i}
          count={messages.length}
          onChange={(next) => onChange(messages.map((x, j) => (j === i ? next : x)))}
          onMove={(by) => move(i, by)}
          onRemove={() => onChange(messages.filter((_, j) => j !== i))}
        />
      ))}
      <div className={styles.row}>
        <span className={styles.muted}>Add</span>
        {ROLES.map((role) => (
          <button
            type="button"
            key={role}
            data-testid={`add-${role}`}
            onClick={() =>
              onChange([...messages, role === 'tool' ? { role, content: '', tool_call_id: '' } : { role, content: '' }])
            }
          >
            + {role}
          </button>
        ))}
      </div>
    </section>
  );
}

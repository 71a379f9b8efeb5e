// The tools offered to the model: OpenAI's `tools` array as JSON, checked as it is typed. Until
// it parses as a list of objects the run waits, and the reason shows under the editor.
import { useState } from 'react';
import styles from './Playground.module.css';

function parseTools(text: string): { tools: unknown[] } | { error: string } {
  if (text.trim() === '') return { tools: [] };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  if (!Array.isArray(v)) return { error: 'Tools are a JSON list: [{"type": "function", "function": {...}}]' };
  const bad = v.findIndex((t) => typeof t !== 'object' || t === null || Array.isArray(t));
  return bad >= 0 ? { error: `Tool ${bad + 1} is not an object` } : { tools: v };
}

const EXAMPLE = `[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]`;

export function ToolsEditor({
  tools,
  onChange,
}: {
  tools: unknown[];
  /** The tools when the text parses, else null (the run waits). */
  onChange: (tools: unknown[] | null) => void;
}) {
  const [text, setText] = useState(() => (tools.length === 0 ? '' : JSON.stringify(tools, null, 2)));
  const [error, setError] = useState<string | null>(null);
  return (
    <section className={styles.section} data-testid="tools">
      <h2>Tools</h2>
      <textarea
        className={`${styles.text} mono`}
        rows={Math.min(16, Math.max(3, text.split('\n').length))}
        value={text}
        placeholder={EXAMPLE}
        aria-label="Tools (JSON)"
        spellCheck={false}
        data-testid="tools-json"
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parseTools(e.target.value);
          setError('error' in parsed ? parsed.error : null);
          onChange('error' in parsed ? null : parsed.tools);
        }}
      />
      {error !== null && (
        <span className={styles.error} data-testid="tools-error">
          {error}
        </span>
      )}
    </section>
  );
}

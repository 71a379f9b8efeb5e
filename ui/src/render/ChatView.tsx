// Chat messages as the providers shape them: OpenAI ({role, content, tool_calls}),
// Anthropic (content blocks: text, image, tool_use, tool_result, thinking), Gemini
// ({role, parts}) and OpenTelemetry's GenAI conventions ({role, parts: [{type: 'text', content},
// {type: 'tool_call', name, arguments}, {type: 'tool_call_response', response}]}).
// Recognised loosely; anything else falls back to the JSON tree. Tool calls are numbered in
// order through the conversation, and each tool result names the call it answers.
import { ValueView } from './ValueView';
import styles from './render.module.css';

import type { Msg } from './chatMessages';

/** Tool call ids (OpenAI `id`, Anthropic `tool_use.id`) -> their number and name. */
type Numbers = ReadonlyMap<string, { n: number; name: string }>;

function numberToolCalls(messages: Msg[]): Numbers {
  const out = new Map<string, { n: number; name: string }>();
  const add = (id: unknown, name: unknown) => {
    if (typeof id === 'string' && !out.has(id)) out.set(id, { n: out.size + 1, name: String(name ?? '') });
  };
  for (const m of messages) {
    if (Array.isArray(m.tool_calls)) for (const t of m.tool_calls as Msg[]) add(t.id, ((t.function ?? t) as Msg).name);
    if (Array.isArray(m.content)) for (const p of m.content as Msg[]) if (p?.type === 'tool_use') add(p.id, p.name);
  }
  return out;
}

function Part({ part, numbers }: { part: unknown; numbers: Numbers }) {
  if (typeof part === 'string') return <ValueView value={part} />;
  if (typeof part !== 'object' || part === null) return <ValueView value={part} />;
  const p = part as Msg;
  if (typeof p.text === 'string') return <ValueView value={p.text} />;
  if (p.type === 'text' && typeof p.content === 'string') return <ValueView value={p.content} />;
  if (p.type === 'tool_call') return <ToolCall name={String(p.name ?? '')} args={p.arguments} />;
  if (p.type === 'tool_result') {
    const of = typeof p.tool_use_id === 'string' ? numbers.get(p.tool_use_id) : undefined;
    return (
      <div className={styles.toolResult} data-testid="tool-result" data-call={of?.n}>
        <div className={styles.toolName}>{of ? `Result of #${of.n} ${of.name}` : 'Tool result'}</div>
        <ValueView value={p.content} />
      </div>
    );
  }
  if (p.type === 'tool_call_response' && 'response' in p) return <ValueView value={p.response} />;
  if (p.type === 'thinking' && typeof p.thinking === 'string') {
    return (
      <details className={styles.thinking}>
        <summary>Thinking</summary>
        <ValueView value={p.thinking} />
      </details>
    );
  }
  if (p.type === 'image_url' && typeof (p.image_url as Msg | undefined)?.url === 'string')
    return <ValueView value={(p.image_url as Msg).url} />;
  if (p.type === 'image' && typeof (p.source as Msg | undefined)?.data === 'string') {
    const s = p.source as Msg;
    return <ValueView value={`data:${String(s.media_type ?? 'image/png')};base64,${String(s.data)}`} />;
  }
  if (
    typeof (p.inline_data as Msg | undefined)?.data === 'string' ||
    typeof (p.inlineData as Msg | undefined)?.data === 'string'
  ) {
    const d = (p.inline_data ?? p.inlineData) as Msg;
    return <ValueView value={`data:${String(d.mime_type ?? d.mimeType ?? 'image/png')};base64,${String(d.data)}`} />;
  }
  if (p.type === 'tool_use' || p.functionCall || p.function_call) {
    const call = (p.functionCall ?? p.function_call ?? p) as Msg;
    return (
      <ToolCall
        name={String(call.name ?? '')}
        args={call.input ?? call.args ?? call.arguments}
        n={typeof p.id === 'string' ? numbers.get(p.id)?.n : undefined}
      />
    );
  }
  return <ValueView value={part} />;
}

function ToolCall({ name, args, n }: { name: string; args: unknown; n?: number }) {
  let parsed = args;
  if (typeof args === 'string') {
    try {
      parsed = JSON.parse(args);
    } catch {
      // Arguments that are not JSON show as they are.
    }
  }
  return (
    <div className={styles.toolCall} data-testid="tool-call" data-n={n}>
      <div className={styles.toolName}>
        Tool call {n !== undefined && `#${n} `}
        <code>{name}</code>
      </div>
      <ValueView value={parsed} />
    </div>
  );
}

export function ChatView({ messages, responseFrom }: { messages: Msg[]; responseFrom?: number }) {
  const numbers = numberToolCalls(messages);
  return (
    <div className={styles.chat} data-testid="chat">
      {messages.map((m, i) => {
        const content = m.content ?? m.parts;
        const toolCalls = Array.isArray(m.tool_calls) ? (m.tool_calls as Msg[]) : [];
        const answers = typeof m.tool_call_id === 'string' ? numbers.get(m.tool_call_id) : undefined;
        const response = responseFrom !== undefined && i >= responseFrom;
        return (
          <div
            key={i}
            className={styles.message}
            data-role={String(m.role)}
            data-response={response || undefined}
            data-testid="message"
          >
            <div className={styles.role}>
              {String(m.role)}
              {typeof m.name === 'string' ? ` · ${m.name}` : ''}
              {answers ? ` · result of #${answers.n} ${answers.name}` : ''}
              {response ? ' · response' : ''}
            </div>
            {Array.isArray(content)
              ? content.map((part, j) => <Part key={j} part={part} numbers={numbers} />)
              : content !== undefined && content !== null && <Part part={content} numbers={numbers} />}
            {toolCalls.map((t, j) => {
              const f = (t.function ?? t) as Msg;
              return (
                <ToolCall
                  key={j}
                  name={String(f.name ?? '')}
                  args={f.arguments}
                  n={typeof t.id === 'string' ? numbers.get(t.id)?.n : undefined}
                />
              );
            })}
          </div>
        );
      })}
    </div>
  );
}

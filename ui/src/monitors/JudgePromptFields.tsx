// An own judge: whether it rates (0-1) or tags, and its prompt, with the variables a turn or a
// call fills in.
import type { Target } from './monitorDraft';
import styles from './Monitors.module.css';

const VARIABLES: Record<Target, string> = {
  agent_turn: '{input_messages} {output_messages} {system_instructions} {agent_name}',
  call: '{inputs} {output} and each input by name, e.g. {question}',
};

const PLACEHOLDER: Record<Target, string> = {
  agent_turn: 'Rate how well the agent answered.\nUser: {input_messages}\nAgent: {output_messages}',
  call: 'Rate the answer.\nInputs: {inputs}\nOutput: {output}',
};

const ANSWER: Record<'rating' | 'tags', string> = {
  rating: 'Ask for JSON: {"value": <0 to 1>, "reason": "…"}',
  tags: 'Ask for JSON: {"scores": [{"value": "<tag>", "reason": "…"}]} (an empty list: no tag)',
};

export function JudgePromptFields({
  target,
  kind,
  prompt,
  onKind,
  onPrompt,
}: {
  target: Target;
  kind: 'rating' | 'tags';
  prompt: string;
  onKind: (k: 'rating' | 'tags') => void;
  onPrompt: (p: string) => void;
}) {
  return (
    <fieldset className={styles.group} data-testid="judge-fields">
      <legend>Judge prompt</legend>
      <div className={styles.row} role="radiogroup" aria-label="What the judge gives">
        {(['rating', 'tags'] as const).map((k) => (
          <label key={k} className={styles.check}>
            <input
              type="radio"
              name="judge-kind"
              checked={kind === k}
              onChange={() => onKind(k)}
              data-testid={`judge-kind-${k}`}
            />
            {k === 'rating' ? 'A rating from 0 to 1' : 'Tags'}
          </label>
        ))}
      </div>
      <textarea
        className={styles.prompt}
        rows={8}
        value={prompt}
        onChange={(e) => onPrompt(e.target.value)}
        placeholder={PLACEHOLDER[target]}
        aria-label="Judge prompt"
        spellCheck={false}
        data-testid="judge-prompt"
      />
      <span className={styles.muted}>
        Variables: <code>{VARIABLES[target]}</code>. {ANSWER[kind]}
      </span>
    </fieldset>
  );
}

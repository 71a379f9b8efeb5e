// "Open in playground" for a call that looks like a model call: its inputs hold a model request
// (messages, contents or a Responses input) or its summary has token usage.
import { Link } from '@tanstack/react-router';
import type { Call } from '../api/types';
import { isDict } from '../isDict';
import { callToPlayground } from '../playground/callToPlayground';
import styles from './CallDetail.module.css';

function looksLikeModelCall(call: Call): boolean {
  const usage = isDict(call.summary) ? call.summary.usage : undefined;
  return callToPlayground(call.inputs) !== null || (isDict(usage) && Object.keys(usage).length > 0);
}

export function PlaygroundLink({ projectId, call }: { projectId: string; call: Call }) {
  if (!looksLikeModelCall(call)) return null;
  const [entity, project] = projectId.split('/') as [string, string];
  return (
    <Link
      to="/$entity/$project/playground"
      params={{ entity, project }}
      search={{ call: call.id }}
      className={styles.playground}
      title="Edit this request and run it again, on this model or others"
      data-testid="open-in-playground"
    >
      Open in playground
    </Link>
  );
}

// The peek drawer beside the calls table (`?peek=<call id>`): the call's detail without leaving
// the table; j/k move it along the rows, Esc closes it, Enter opens the call in its trace.
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { CallDetail } from '../call/CallDetail';
import type { Tab } from '../trace/traceSearch';
import styles from './CallsPage.module.css';

export function PeekDrawer({
  entity,
  project,
  callId,
  onClose,
}: {
  entity: string;
  project: string;
  callId: string;
  onClose: () => void;
}) {
  const [tab, setTab] = useState<Tab>('io');
  return (
    <aside className={styles.peek} data-testid="peek" aria-label="Call preview">
      <div className={styles.peekBar}>
        <Link
          to="/$entity/$project/calls/$callId"
          params={{ entity, project, callId }}
          search={{}}
          data-testid="peek-open"
        >
          Open in its trace →
        </Link>
        <span className={styles.muted}>j / k move · Esc closes</span>
        <button type="button" onClick={onClose} aria-label="Close the preview">
          ×
        </button>
      </div>
      <CallDetail projectId={`${entity}/${project}`} callId={callId} tab={tab} onTab={setTab} />
    </aside>
  );
}

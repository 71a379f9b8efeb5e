// The Code tab: the source of the call's op version, read from the op object its op_name
// refers to (and the file the SDK saved with it).
import { Link } from '@tanstack/react-router';
import { useObjectVersion } from '../objects/objectsApi';
import { opSourceOf } from '../objects/objectKinds';
import { OpCode } from '../objects/OpCode';
import { ErrorBanner } from '../shell/ErrorBanner';
import styles from './CallDetail.module.css';

/** `weave:///entity/project/op/name:digest` -> its name and digest, else null. */
export function opRefParts(opName: string): { name: string; digest: string } | null {
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/op\/([^:/]+):([^/]+)$/.exec(opName);
  return m ? { name: decodeURIComponent(m[1]!), digest: m[2]! } : null;
}

export function CallCode({ projectId, opName }: { projectId: string; opName: string }) {
  const ref = opRefParts(opName);
  const q = useObjectVersion(projectId, ref?.name ?? '', ref?.digest);
  if (ref === null)
    return (
      <p className={styles.muted}>This call's op ({opName}) is not a saved op version, so there is no code to show.</p>
    );
  if (q.isPending) return <p className={styles.muted}>Loading the op…</p>;
  if (q.isError) return <ErrorBanner error={q.error} onRetry={() => void q.refetch()} />;
  const source = opSourceOf(q.data.val);
  const [entity, project] = projectId.split('/') as [string, string];
  return (
    <div data-testid="call-code">
      <p className={styles.muted}>
        Op{' '}
        <Link
          to="/$entity/$project/objects/$name/versions/$digest"
          params={{ entity, project, name: ref.name, digest: ref.digest }}
        >
          {ref.name}:{ref.digest.slice(0, 8)}
        </Link>
      </p>
      {source ? (
        <OpCode projectId={projectId} file={source} />
      ) : (
        <p className={styles.muted}>The op version has no saved code.</p>
      )}
    </div>
  );
}

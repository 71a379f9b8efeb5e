// /ui/{entity}/{project}/playground: edit a model request and run it on one to four models side
// by side. The draft starts from `?call=` (a recorded model call), `?span=` (an agent's chat
// span) or an example; `?prompt=` follows a MessagesPrompt version; `?models=` names the
// columns. The draft itself (messages, parameters, tools) is the editor's state: it stays when
// saving it as a prompt takes the source out of the URL, and starts over when a new source
// comes in.
import { useRef } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ErrorBanner } from '../shell/ErrorBanner';
import { usePageTitle } from '../shell/usePageTitle';
import { type DraftSource, useSourceDraft } from './playgroundApi';
import { emptyDraft, type PlaygroundDraft } from './playgroundDraft';
import { PlaygroundEditor } from './PlaygroundEditor';
import type { PlaygroundSearch } from './playgroundSearch';
import styles from './Playground.module.css';

const route = getRouteApi('/$entity/$project/playground');

function sourceOf(search: PlaygroundSearch): DraftSource {
  if (search.call) return { kind: 'call', id: search.call };
  if (search.span) {
    const [traceId, spanId] = search.span.split(':') as [string, string];
    return { kind: 'span', traceId, spanId };
  }
  return null;
}

/** Without a source, an example to edit; after a prompt, no messages of its own. */
function startDraft(search: PlaygroundSearch): PlaygroundDraft {
  const draft = emptyDraft();
  return search.prompt ? { ...draft, messages: [] } : draft;
}

export function PlaygroundPage() {
  const { entity, project } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const projectId = `${entity}/${project}`;
  usePageTitle(`Playground · ${projectId}`);
  const source = sourceOf(search);
  const sourceKey = source === null ? null : source.kind === 'call' ? `call:${source.id}` : `span:${search.span}`;
  // The editor is keyed by the last source seen: a source leaving the URL keeps the draft.
  const editorKey = useRef('example');
  if (sourceKey !== null) editorKey.current = sourceKey;
  const loaded = useSourceDraft(projectId, source);
  if (source !== null && loaded.isPending)
    return (
      <p className={styles.page} data-testid="playground-loading">
        Loading the {source.kind}…
      </p>
    );
  if (source !== null && loaded.isError)
    return (
      <div className={styles.page}>
        <ErrorBanner error={loaded.error} />
        <Link
          to="/$entity/$project/playground"
          params={{ entity, project }}
          search={{ ...search, call: undefined, span: undefined }}
        >
          Start from an example instead
        </Link>
      </div>
    );
  return (
    <PlaygroundEditor
      key={editorKey.current}
      entity={entity}
      project={project}
      initial={loaded.data ?? startDraft(search)}
      search={search}
      setSearch={(patch) => void navigate({ search: (s) => ({ ...s, ...patch }), replace: true })}
    />
  );
}

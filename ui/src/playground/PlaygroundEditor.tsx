// The playground's working area: the draft on the left (the prompt it follows, its messages,
// parameters and tools), the model columns on the right, run together on the same request
// (the Run button, or Ctrl+Enter anywhere in the editor).
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorBanner } from '../shell/ErrorBanner';
import { MessageList } from './MessageList';
import { ModelColumn } from './ModelColumn';
import { defaultModel } from './modelProvider';
import { ParamsPanel } from './ParamsPanel';
import { savePrompt, useCompletionModels, usePrompt } from './playgroundApi';
import { completionInputs, type PlaygroundDraft, placeholders } from './playgroundDraft';
import { MAX_MODELS, modelList, type PlaygroundSearch } from './playgroundSearch';
import { PromptPanel } from './PromptPanel';
import { PromptPicker } from './PromptPicker';
import { PromptSave } from './PromptSave';
import { ToolsEditor } from './ToolsEditor';
import { usePlaygroundRuns } from './usePlaygroundRuns';
import styles from './Playground.module.css';

interface Props {
  entity: string;
  project: string;
  initial: PlaygroundDraft;
  search: PlaygroundSearch;
  setSearch: (patch: Partial<Record<keyof PlaygroundSearch, string | undefined>>) => void;
}

export function PlaygroundEditor({ entity, project, initial, search, setSearch }: Props) {
  const projectId = `${entity}/${project}`;
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(initial);
  const [toolsValid, setToolsValid] = useState(true);
  const models = useCompletionModels(projectId);
  const providers = models.data?.providers ?? [];
  const promptRef = search.prompt ?? draft.prompt ?? undefined;
  const prompt = usePrompt(projectId, promptRef);
  const { runs, runAll, stop, drop } = usePlaygroundRuns(projectId);
  const chosen = modelList(search.models);
  const columns = chosen.length > 0 ? chosen : [draft.model ?? defaultModel(providers) ?? ''];
  const variables = promptRef ? placeholders([...(prompt.data?.messages ?? []), ...draft.messages]) : [];
  const running = runs.some((r) => r.status === 'running');
  const canRun =
    toolsValid && columns.every((m) => m !== '') && (promptRef ? prompt.data !== undefined : draft.messages.length > 0);

  const setModels = (list: string[]) => setSearch({ models: list.length > 0 ? list.join(',') : undefined });
  const run = () => {
    if (!canRun) return;
    const request = { ...draft, prompt: promptRef ?? null };
    runAll(columns.map((m) => completionInputs(request, m)));
  };
  const follow = (ref: string | null, messages: PlaygroundDraft['messages']) => {
    setDraft((d) => ({ ...d, prompt: ref, messages }));
    setSearch({ prompt: ref ?? undefined });
  };
  const save = async (name: string) => {
    const ref = await savePrompt(projectId, name, [...(prompt.data?.messages ?? []), ...draft.messages]);
    await queryClient.invalidateQueries({ queryKey: ['playground-prompts', projectId] });
    await queryClient.invalidateQueries({ queryKey: ['objects', projectId] });
    // The saved version now holds every message: the draft follows it, from its own URL.
    setDraft((d) => ({ ...d, prompt: ref, messages: [] }));
    setSearch({ prompt: ref, call: undefined, span: undefined });
  };

  return (
    <div
      className={styles.page}
      data-testid="playground"
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
          e.preventDefault();
          run();
        }
      }}
    >
      <div className={styles.bar}>
        <h1>Playground</h1>
        {search.call && (
          <span className={styles.muted} data-testid="playground-source">
            from call{' '}
            <Link to="/$entity/$project/calls/$callId" params={{ entity, project, callId: search.call }}>
              {search.call.slice(-12)}
            </Link>
          </span>
        )}
        {search.span && (
          <span className={styles.muted} data-testid="playground-source">
            from span {search.span.split(':')[1]}
          </span>
        )}
        <span className={styles.spacer} />
        <button
          type="button"
          onClick={() => setModels([...columns, columns.at(-1) ?? ''])}
          disabled={columns.length >= MAX_MODELS}
          title={`Side by side, up to ${MAX_MODELS} models`}
          data-testid="add-model"
        >
          + Compare with another model
        </button>
        <button type="button" onClick={stop} disabled={!running} data-testid="playground-stop">
          Stop
        </button>
        <button
          type="button"
          className={styles.primary}
          onClick={run}
          disabled={!canRun}
          title="Run on every model (Ctrl+Enter)"
          data-testid="playground-run"
        >
          {running ? 'Run again' : columns.length > 1 ? `Run ${columns.length} models` : 'Run'}
        </button>
      </div>
      {models.isError && <ErrorBanner error={models.error} onRetry={() => void models.refetch()} />}
      <div className={styles.split}>
        <div className={styles.editor}>
          {promptRef !== undefined && (
            <PromptPanel
              entity={entity}
              project={project}
              prompt={prompt.data}
              error={prompt.error}
              variables={variables}
              values={draft.templateVars}
              onValues={(templateVars) => setDraft((d) => ({ ...d, templateVars }))}
              onDetach={() => follow(null, [...(prompt.data?.messages ?? []), ...draft.messages])}
              onClose={() => follow(null, draft.messages)}
            />
          )}
          <MessageList
            messages={draft.messages}
            afterPrompt={promptRef !== undefined}
            onChange={(messages) => setDraft((d) => ({ ...d, messages }))}
          />
          <div className={styles.row}>
            <PromptPicker projectId={projectId} onPick={(ref) => follow(ref, [])} />
            <span className={styles.spacer} />
            <PromptSave
              defaultName={prompt.data?.name ?? 'playground-prompt'}
              disabled={draft.messages.length === 0 && prompt.data === undefined}
              onSave={save}
            />
          </div>
          <ParamsPanel params={draft.params} onChange={(params) => setDraft((d) => ({ ...d, params }))} />
          <ToolsEditor
            tools={draft.tools}
            onChange={(tools) => {
              setToolsValid(tools !== null);
              if (tools !== null) setDraft((d) => ({ ...d, tools }));
            }}
          />
        </div>
        <div className={styles.columns} data-testid="model-columns">
          {columns.map((m, i) => (
            <ModelColumn
              key={i}
              entity={entity}
              project={project}
              model={m}
              providers={providers}
              run={runs[i]}
              onModel={(next) => setModels(columns.map((x, j) => (j === i ? next : x)))}
              onRemove={
                columns.length > 1
                  ? () => {
                      drop(i);
                      setModels(columns.filter((_, j) => j !== i));
                    }
                  : null
              }
            />
          ))}
        </div>
      </div>
    </div>
  );
}

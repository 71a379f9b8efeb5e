// The reaction bar of the selected call, wired to the feedback API.
import { useViewer } from '../api/viewer';
import { ReactionBar } from './ReactionBar';
import { REACTION, useFeedback } from './useFeedback';

export function CallReactions({ projectId, callId }: { projectId: string; callId: string }) {
  const { list, add, remove } = useFeedback(projectId, callId);
  const viewer = useViewer();
  return (
    <ReactionBar
      rows={list.data ?? []}
      viewer={viewer}
      busy={add.isPending || remove.isPending || list.isPending}
      onAdd={(emoji) => add.mutate({ feedback_type: REACTION, payload: { emoji } })}
      onRemove={(id) => remove.mutate(id)}
    />
  );
}

// Evaluated first (main.tsx's first import): on a conversation's URL, its first pages are asked
// for before React and the router start, ~0.25 s before the route's loader would ask
// (conversationStart.ts keeps them; the loader's own call then finds them on their way).
import { prefetchConversationStart } from './conversationStart';

const match = /^\/ui\/([^/]+)\/([^/]+)\/agents\/conversations\/([^/]+)\/?$/.exec(window.location.pathname);
if (match) {
  try {
    const [entity, project, conversation] = match.slice(1).map(decodeURIComponent) as [string, string, string];
    prefetchConversationStart(`${entity}/${project}`, conversation);
  } catch {
    // A malformed escape: the router reports the URL; nothing to start.
  }
}

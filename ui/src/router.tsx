// Every view is a URL under /ui/; its state lives in validated search params. The projects
// and calls views are in the first bundle; every other view is a chunk loaded on first use.
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { Shell } from './shell/Shell';
import { NotFound } from './shell/NotFound';
import { ProjectsPage } from './projects/ProjectsPage';
import { CallsPage } from './calls/CallsPage';
import { parseCallsSearch } from './calls/callsSearch';
import { parseTraceSearch } from './trace/traceSearch';
import { traceStream } from './trace/traceStreams';
import { parseMonitorSearch } from './monitor/monitorSearch';
import { parseObjectDiffSearch, parseObjectsSearch, parseObjectVersionSearch } from './objects/objectsSearch';
import { parseEvaluationsCompareSearch } from './evaluations/evaluationsSearch';
import { parseThreadsSearch } from './threads/threadsSearch';
import { parseCompareSearch } from './compare/compareSearch';
import { parseAgentsSearch, parseConversationSearch, parseConversationsSearch } from './agents/agentsSearch';
import { prefetchConversationStart } from './agents/conversationStart';
import { parsePlaygroundSearch } from './playground/playgroundSearch';
import { parseSignalsSearch } from './signals/signalsSearch';
import { parseMonitorsSearch } from './monitors/monitorsSearch';

const root = createRootRoute({ component: Shell, notFoundComponent: NotFound });
const route = <P extends string>(path: P) => ({ getParentRoute: () => root, path });

const routes = [
  createRoute({ ...route('/'), component: ProjectsPage }),
  createRoute({ ...route('$entity/$project/calls'), validateSearch: parseCallsSearch, component: CallsPage }),
  createRoute({
    ...route('$entity/$project/calls/$callId'),
    validateSearch: parseTraceSearch,
    // The skeleton stream starts with the navigation, while the view's chunk loads.
    loader: ({ params }) => void traceStream(`${params.entity}/${params.project}`, params.callId),
    component: lazyRouteComponent(() => import('./trace/TracePage'), 'TracePage'),
  }),
  createRoute({
    ...route('$entity/$project/monitor'),
    validateSearch: parseMonitorSearch,
    component: lazyRouteComponent(() => import('./monitor/MonitorPage'), 'MonitorPage'),
  }),
  // Datasets and ops are kinds of object: their short URLs open the objects view on that kind.
  createRoute({
    ...route('$entity/$project/datasets'),
    beforeLoad: ({ params }) => {
      throw redirect({ to: '/$entity/$project/objects', params, search: { kind: 'datasets' }, replace: true });
    },
  }),
  createRoute({
    ...route('$entity/$project/ops'),
    beforeLoad: ({ params }) => {
      throw redirect({ to: '/$entity/$project/objects', params, search: { kind: 'ops' }, replace: true });
    },
  }),
  createRoute({
    ...route('$entity/$project/objects'),
    validateSearch: parseObjectsSearch,
    component: lazyRouteComponent(() => import('./objects/ObjectsPage'), 'ObjectsPage'),
  }),
  createRoute({
    ...route('$entity/$project/objects/$name'),
    component: lazyRouteComponent(() => import('./objects/ObjectVersionsPage'), 'ObjectVersionsPage'),
  }),
  createRoute({
    ...route('$entity/$project/objects/$name/versions/$digest'),
    validateSearch: parseObjectVersionSearch,
    component: lazyRouteComponent(() => import('./objects/ObjectVersionPage'), 'ObjectVersionPage'),
  }),
  createRoute({
    ...route('$entity/$project/objects/$name/diff'),
    validateSearch: parseObjectDiffSearch,
    component: lazyRouteComponent(() => import('./objects/ObjectDiffPage'), 'ObjectDiffPage'),
  }),
  createRoute({
    ...route('$entity/$project/evaluations'),
    component: lazyRouteComponent(() => import('./evaluations/EvaluationsPage'), 'EvaluationsPage'),
  }),
  createRoute({
    ...route('$entity/$project/evaluations/compare'),
    validateSearch: parseEvaluationsCompareSearch,
    component: lazyRouteComponent(() => import('./evaluations/EvaluationsComparePage'), 'EvaluationsComparePage'),
  }),
  createRoute({
    ...route('$entity/$project/threads'),
    validateSearch: parseThreadsSearch,
    component: lazyRouteComponent(() => import('./threads/ThreadsPage'), 'ThreadsPage'),
  }),
  createRoute({
    ...route('$entity/$project/compare'),
    validateSearch: parseCompareSearch,
    component: lazyRouteComponent(() => import('./compare/CompareCallsPage'), 'CompareCallsPage'),
  }),
  createRoute({
    ...route('$entity/$project/agents'),
    validateSearch: parseAgentsSearch,
    component: lazyRouteComponent(() => import('./agents/AgentsPage'), 'AgentsPage'),
  }),
  // The static `conversations` and `signals` segments rank above `$agent`.
  createRoute({
    ...route('$entity/$project/agents/signals'),
    validateSearch: parseSignalsSearch,
    component: lazyRouteComponent(() => import('./signals/SignalsPage'), 'SignalsPage'),
  }),
  createRoute({
    ...route('$entity/$project/agents/conversations'),
    validateSearch: parseConversationsSearch,
    component: lazyRouteComponent(() => import('./agents/ConversationsPage'), 'ConversationsPage'),
  }),
  createRoute({
    ...route('$entity/$project/agents/conversations/$conversationId'),
    validateSearch: parseConversationSearch,
    // On entering (not on a ?turn= change), the first pages start while the page's code loads.
    loader: ({ params, cause }) => {
      if (cause !== 'stay') prefetchConversationStart(`${params.entity}/${params.project}`, params.conversationId);
    },
    component: lazyRouteComponent(() => import('./agents/ConversationPage'), 'ConversationPage'),
  }),
  createRoute({
    ...route('$entity/$project/agents/$agent'),
    component: lazyRouteComponent(() => import('./agents/AgentPage'), 'AgentPage'),
  }),
  createRoute({
    ...route('$entity/$project/monitors'),
    validateSearch: parseMonitorsSearch,
    component: lazyRouteComponent(() => import('./monitors/MonitorsPage'), 'MonitorsPage'),
  }),
  createRoute({
    ...route('$entity/$project/playground'),
    validateSearch: parsePlaygroundSearch,
    component: lazyRouteComponent(() => import('./playground/PlaygroundPage'), 'PlaygroundPage'),
  }),
  createRoute({
    ...route('$entity/$project/settings/providers'),
    component: lazyRouteComponent(() => import('./settings/ProvidersPage'), 'ProvidersPage'),
  }),
] as const;

export const router = createRouter({ routeTree: root.addChildren(routes), basepath: '/ui', defaultPreload: false });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

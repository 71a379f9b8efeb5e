// Every view is a URL under /ui/; its state lives in validated search params.
import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { Shell } from './shell/Shell';
import { ProjectsPage } from './projects/ProjectsPage';
import { CallsPage } from './calls/CallsPage';
import { parseCallsSearch } from './calls/callsSearch';
import { TracePage } from './trace/TracePage';
import { parseTraceSearch } from './trace/traceSearch';
import { NotFound } from './shell/NotFound';

const root = createRootRoute({ component: Shell, notFoundComponent: NotFound });
const projects = createRoute({ getParentRoute: () => root, path: '/', component: ProjectsPage });
const calls = createRoute({ getParentRoute: () => root, path: '$entity/$project/calls', validateSearch: parseCallsSearch, component: CallsPage });
const trace = createRoute({ getParentRoute: () => root, path: '$entity/$project/calls/$callId', validateSearch: parseTraceSearch, component: TracePage });

export const router = createRouter({ routeTree: root.addChildren([projects, calls, trace]), basepath: '/ui', defaultPreload: false });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// The web UI, served by Weft itself at /ui/: the files Vite builds into <package>/dist/ui
// (index.html, and assets/ whose names carry a content hash), plus the UI's own API
// (api/ui.ts). Every other path below /ui/ that names no file answers index.html: the UI
// routes on the client (/ui/acme/proj/calls/abc?call=x). Pages, assets and the redirects
// here are open (they hold no data; the API they call checks keys), and stay out of the
// OpenAPI document: they are declared in their Fastify config, not in the route table.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotBuiltError, NotFoundError } from '../../api/errors.js';
import { findPackageRoot } from '../../package-root.js';
import { UI_PREFIX, uiRoutes } from '../../api/ui.js';
import { listUiProjects } from '../../service/ui/ui-projects.js';
import type { Store } from '../../storage/store.js';
import { bindRoute } from '../bind-route.js';
import { traceTree } from '../../service/ui/ui-trace-tree.js';
import { callsTimeseries } from '../../service/ui/ui-timeseries.js';
import { objectVersionCounts } from '../../service/ui/ui-object-version-counts.js';
import { callPaths } from '../../service/ui/ui-call-paths.js';
import { untilClosed } from '../close-signal.js';

/** On every answer below /ui: the UI loads nothing from elsewhere, runs no inline script, is never framed. */
const SECURITY_HEADERS = {
  'content-security-policy': [
    "default-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "script-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** A hashed asset never changes under its name: cached for a year, never revalidated. */
const IMMUTABLE = { cacheControl: true, maxAge: 31_536_000_000, immutable: true } as const;
/** index.html (and other unhashed files) name the current assets: revalidated on every load (ETag). */
const REVALIDATE = { cacheControl: false } as const;

const OPEN = { config: { access: 'open' } } as const;

const NOT_BUILT = 'The web UI is not built: run `npm run build` (it builds dist/ui), then reload';

/**
 * Where the built UI lives: <package root>/dist/ui. Found from this module's directory, which is
 * src/http/routes under tsx and dist/http/routes after tsc, so no fixed relative path fits both.
 */
export function defaultUiDir(): string | null {
  const root = findPackageRoot(import.meta.dirname);
  return root === null ? null : join(root, 'dist', 'ui');
}

const isUiPath = (url: string) =>
  url === UI_PREFIX || url.startsWith(`${UI_PREFIX}/`) || url.startsWith(`${UI_PREFIX}?`);

/**
 * A request's wildcard path as a path below the UI directory, or null when it is none: empty,
 * "." or ".." segments, dotfiles, backslashes and NULs never name a servable file.
 */
function fileBelow(rel: string): string | null {
  const segments = rel.split('/');
  return segments.every((s) => s !== '' && !s.startsWith('.') && !s.includes('\\') && !s.includes('\0')) ? rel : null;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The path of a request without its query string, for messages. */
const pathOf = (req: FastifyRequest) => req.url.split('?', 1)[0]!;

/** Serves the UI files of `dir` (null: no UI directory was found, as if not built). */
function uiFiles(dir: string | null) {
  /** The UI directory, once it holds index.html: without it nothing of the UI can load. */
  async function builtDir(): Promise<string> {
    if (dir === null || !(await isFile(join(dir, 'index.html')))) throw new NotBuiltError(NOT_BUILT);
    return dir;
  }
  async function page(_req: FastifyRequest, reply: FastifyReply) {
    const root = await builtDir();
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root, REVALIDATE);
  }
  async function asset(req: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) {
    const root = await builtDir();
    const rel = fileBelow(req.params['*']);
    if (rel === null || !(await isFile(join(root, 'assets', rel))))
      throw new NotFoundError(`No web UI file ${pathOf(req)}`);
    return reply.sendFile(`assets/${rel}`, root, IMMUTABLE);
  }
  /** A file of the UI directory (favicon.ico...), else index.html: the client routes the path. */
  async function fileOrPage(req: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) {
    const rest = req.params['*'];
    const first = rest.split('/', 1)[0];
    // /ui/api/... is the UI's API (an unknown endpoint there is no page), /ui/assets the hashed files.
    if (first === 'api') return reply.callNotFound();
    if (first === 'assets') throw new NotFoundError(`No web UI file ${pathOf(req)}`);
    const root = await builtDir();
    const rel = fileBelow(rest);
    if (rel !== null && (await isFile(join(root, rel))))
      return reply.header('cache-control', 'no-cache').sendFile(rel, root, REVALIDATE);
    return page(req, reply);
  }
  return { page, asset, fileOrPage };
}

/** Weave's links to a call (the SDKs print them) -> the same call in Weft's UI. */
function callRedirect(
  req: FastifyRequest<{ Params: { entity: string; project: string; id: string } }>,
  reply: FastifyReply,
) {
  const { entity, project, id } = req.params;
  return reply.redirect(`${UI_PREFIX}/${[entity, project, 'calls', id].map(encodeURIComponent).join('/')}`, 302);
}

/** `uiDir`: where the built UI is (null: none found; the pages then answer 503). */
export async function registerUiRoutes(app: FastifyInstance, store: Store, uiDir: string | null): Promise<void> {
  bindRoute(app, uiRoutes.projects, (_body, ctx) => listUiProjects(store, ctx.access));
  bindRoute(app, uiRoutes.traceTree, (body) => traceTree(store, body));
  bindRoute(app, uiRoutes.timeseries, (body, _ctx, _input, reply) =>
    callsTimeseries(store, body, untilClosed(reply.raw)),
  );
  bindRoute(app, uiRoutes.objectVersionCounts, (body) => objectVersionCounts(store, body));
  bindRoute(app, uiRoutes.callPaths, (body) => callPaths(store, body));
  // Only reply.sendFile: the routes are ours (fastify-static's own would answer 404s its way).
  await app.register(fastifyStatic, { serve: false });
  app.addHook('onSend', async (req, reply, payload) => {
    if (isUiPath(req.url)) reply.headers(SECURITY_HEADERS);
    return payload;
  });
  const files = uiFiles(uiDir);
  app.get('/', OPEN, (_req, reply) => reply.redirect(`${UI_PREFIX}/`, 302));
  app.get(UI_PREFIX, OPEN, files.page);
  app.get(`${UI_PREFIX}/`, OPEN, files.page);
  app.get(`${UI_PREFIX}/assets/*`, OPEN, files.asset);
  app.get(`${UI_PREFIX}/*`, OPEN, files.fileOrPage);
  // Weave's shapes: <frontend>/<entity>/<project>/weave/calls/<id> and the SDKs' short /r/call/<id>.
  // No API route is a GET of four or five segments, so these shadow none (test/ui-server.test.ts).
  // An entity named "ui" is the one exception: /ui/... are the UI's own paths.
  app.get('/:entity/:project/weave/calls/:id', OPEN, callRedirect);
  app.get('/:entity/:project/r/call/:id', OPEN, callRedirect);
}

// Binds the objects routes: thin adapters from HTTP (body, path, query) to the object service.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestValidationError } from '../../api/errors.js';
import { objectsRoutes as r, type ObjPathParams } from '../../api/objects.js';
import type { Store } from '../../storage/store.js';
import {
  addTags, createObject, deleteObjects, queryObjects, readObject, removeAliases, removeTags, setAliases,
} from '../../service/object-service.js';
import { bindRoute, RawJson } from '../bind-route.js';

/** Path parameters, decoded by the router (`my%2Fop` is the object id `my/op`). */
function pathParams(req: FastifyRequest): { objectId: string; digest: string } {
  const p = req.params as ObjPathParams;
  return { objectId: p.object_id ?? '', digest: p.digest ?? '' };
}

/** `?project_id=` of the list routes; FastAPI answers a missing one with a 422. */
function projectIdQuery(req: FastifyRequest): string {
  const v = (req.query as Record<string, unknown> | undefined)?.project_id;
  if (typeof v === 'string' && v.length > 0) return v;
  const issue = v === undefined
    ? { loc: ['query', 'project_id'], msg: 'Field required', type: 'missing' }
    : { loc: ['query', 'project_id'], msg: 'Input should be a non-empty string', type: 'string_type' };
  throw new RequestValidationError([issue]);
}

export function registerObjectRoutes(app: FastifyInstance, store: Store): void {
  const objects = store.objects;
  bindRoute(app, r.objCreate, async (body, ctx) => createObject(objects, body, ctx.userId));
  bindRoute(app, r.objRead, async (body) => new RawJson(await readObject(objects, body)));
  bindRoute(app, r.objsQuery, async (body) => new RawJson(await queryObjects(objects, body)));
  bindRoute(app, r.objDelete, async (body) => deleteObjects(objects, body));
  bindRoute(app, r.objAddTags, async (body, _ctx, req) => {
    const { objectId, digest } = pathParams(req);
    await addTags(objects, body.project_id, objectId, digest, body.tags);
    return {};
  });
  bindRoute(app, r.objRemoveTags, async (body, _ctx, req) => {
    const { objectId, digest } = pathParams(req);
    await removeTags(objects, body.project_id, objectId, digest, body.tags);
    return {};
  });
  bindRoute(app, r.objSetAliases, async (body, _ctx, req) => {
    await setAliases(objects, body.project_id, pathParams(req).objectId, body.digest, body.aliases);
    return {};
  });
  bindRoute(app, r.objRemoveAliases, async (body, _ctx, req) => {
    await removeAliases(objects, body.project_id, pathParams(req).objectId, body.aliases);
    return {};
  });
  bindRoute(app, r.tagsList, async (_body, _ctx, req) => ({ tags: await objects.listTags(projectIdQuery(req)) }));
  bindRoute(app, r.aliasesList, async (_body, _ctx, req) => ({ aliases: await objects.listAliases(projectIdQuery(req)) }));
}

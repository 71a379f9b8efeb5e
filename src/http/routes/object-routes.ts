// Binds the objects routes: thin adapters from HTTP (body, path, query) to the object service.
import type { FastifyInstance } from 'fastify';
import { objectsRoutes as r } from '../../api/objects.js';
import type { Store } from '../../storage/store.js';
import {
  addTags,
  createObject,
  deleteObjects,
  queryObjects,
  readObject,
  removeAliases,
  removeTags,
  setAliases,
} from '../../service/objects/object-service.js';
import { bindRoute, RawJson } from '../bind-route.js';

/** `onCreated`: told of each version written (a monitor switched on or off acts at once). */
export function registerObjectRoutes(
  app: FastifyInstance,
  store: Store,
  onCreated: (projectId: string) => void = () => {},
): void {
  const objects = store.objects;
  bindRoute(app, r.objCreate, async (body, ctx) => {
    const created = await createObject(objects, body, ctx.userId);
    onCreated(body.obj.project_id);
    return created;
  });
  bindRoute(app, r.objRead, async (body) => new RawJson(await readObject(objects, body)));
  bindRoute(app, r.objsQuery, async (body) => new RawJson(await queryObjects(objects, body)));
  bindRoute(app, r.objDelete, async (body) => deleteObjects(objects, body));
  bindRoute(app, r.objAddTags, async (body, _ctx, { params }) => {
    await addTags(objects, body.project_id, params.object_id, params.digest, body.tags);
    return {};
  });
  bindRoute(app, r.objRemoveTags, async (body, _ctx, { params }) => {
    await removeTags(objects, body.project_id, params.object_id, params.digest, body.tags);
    return {};
  });
  bindRoute(app, r.objSetAliases, async (body, _ctx, { params }) => {
    await setAliases(objects, body.project_id, params.object_id, body.digest, body.aliases);
    return {};
  });
  bindRoute(app, r.objRemoveAliases, async (body, _ctx, { params }) => {
    await removeAliases(objects, body.project_id, params.object_id, body.aliases);
    return {};
  });
  bindRoute(app, r.tagsList, async (_body, _ctx, { query }) => ({ tags: await objects.listTags(query.project_id) }));
  bindRoute(app, r.aliasesList, async (_body, _ctx, { query }) => ({
    aliases: await objects.listAliases(query.project_id),
  }));
}

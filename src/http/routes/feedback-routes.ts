// Binds the feedback routes (api/feedback.ts) to the feedback service. The user id
// always comes from the request context; a wb_user_id in the body is ignored.
import type { FastifyInstance } from 'fastify';
import { feedbackRoutes } from '../../api/feedback.js';
import type { FeedbackService } from '../../service/feedback/feedback-service.js';
import { bindRoute } from '../bind-route.js';

export function registerFeedbackRoutes(app: FastifyInstance, feedback: FeedbackService): void {
  bindRoute(app, feedbackRoutes.feedbackCreate, (body, ctx) => feedback.create(body, ctx.userId));
  bindRoute(app, feedbackRoutes.feedbackCreateBatch, async (body, ctx) => ({
    res: await feedback.createBatch(body.batch, ctx.userId),
  }));
  bindRoute(app, feedbackRoutes.feedbackQuery, (body) => feedback.query(body));
  bindRoute(app, feedbackRoutes.feedbackPurge, async (body) => {
    await feedback.purge(body);
    return {};
  });
  bindRoute(app, feedbackRoutes.feedbackReplace, (body, ctx) => feedback.replace(body, ctx.userId));
  bindRoute(app, feedbackRoutes.feedbackStats, (body) => feedback.stats(body));
  bindRoute(app, feedbackRoutes.feedbackAggregate, (body) => feedback.aggregate(body));
  bindRoute(app, feedbackRoutes.feedbackPayloadSchema, (body) => feedback.payloadSchema(body));
}

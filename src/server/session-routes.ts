import type { Context, Hono } from "hono";
import { SessionNotFoundError } from "../errors/toolsmith-error.js";
import { authorizeStateWrite, authorizeUser, type ApiEnv, type ApiServerParts } from "./api-env.js";
import { HttpError } from "./http-error.js";
import { optionalObject, readJsonObject } from "./request-body.js";

const SESSIONS = "/apps/:appName/users/:userId/sessions";

/** ADK's session endpoints: list (a plain array, paged with `pageSize`/`pageToken`), create, read, delete. */
export function registerSessionRoutes(app: Hono<ApiEnv>, { registry }: ApiServerParts): void {
  const sessionService = registry.services.sessionService;

  app.get(SESSIONS, async (context) => {
    const { appName, userId } = context.req.param();
    authorizeUser(context, userId);
    registry.assertApp(appName);
    const pageSize = pageSizeOf(context.req.query("pageSize"));
    const page = await sessionService.listSessions({ appName, userId, pageSize, pageToken: context.req.query("pageToken") || undefined });
    // ADK's clients expect a plain array; the next page's token travels in a header.
    if (page.nextPageToken) context.header("x-next-page-token", page.nextPageToken);
    return context.json(page.sessions);
  });

  const create = async (context: Context<ApiEnv>, sessionId: string | undefined) => {
    const { appName, userId } = context.req.param() as { appName: string; userId: string };
    authorizeUser(context, userId);
    registry.assertApp(appName);
    const body = await readJsonObject(context.req.raw);
    const state = optionalObject(body, "state");
    authorizeStateWrite(context.get("tokenUserId"), state, "state");
    const idFromBody = typeof body.sessionId === "string" && body.sessionId ? body.sessionId : undefined;
    const session = await sessionService.createSession({ appName, userId, state, sessionId: sessionId ?? idFromBody });
    return context.json(session);
  };
  app.post(SESSIONS, (context) => create(context, undefined));
  app.post(`${SESSIONS}/:sessionId`, (context) => create(context, context.req.param("sessionId")));

  app.get(`${SESSIONS}/:sessionId`, async (context) => {
    const { appName, userId, sessionId } = context.req.param();
    authorizeUser(context, userId);
    registry.assertApp(appName);
    const session = await sessionService.getSession({ appName, userId, sessionId });
    if (!session) throw new SessionNotFoundError({ appName, userId, sessionId });
    return context.json(session);
  });

  app.delete(`${SESSIONS}/:sessionId`, async (context) => {
    const { appName, userId, sessionId } = context.req.param();
    authorizeUser(context, userId);
    registry.assertApp(appName);
    const session = await sessionService.getSession({ appName, userId, sessionId, config: { numRecentEvents: 1 } });
    if (!session) throw new SessionNotFoundError({ appName, userId, sessionId });
    await sessionService.deleteSession({ appName, userId, sessionId });
    return context.body(null, 204);
  });
}

function pageSizeOf(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > 1000) throw new HttpError(400, "INVALID_QUERY", '"pageSize" must be a whole number from 1 to 1000.');
  return size;
}

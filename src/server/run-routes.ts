import { RunCancellation } from "../agents/run-cancellation.js";
import type { Hono } from "hono";
import { SessionNotFoundError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import type { ApiEnv, ApiServerParts } from "./api-env.js";
import { HttpError, toHttpError } from "./http-error.js";
import { ServerShuttingDownError } from "./run-tracker.js";
import { optionalMessage, optionalObject, readJsonObject, requiredString } from "./request-body.js";

/**
 * `POST /run` (every event as one JSON array) and `POST /run_sse` (one
 * `data:` line per event, partial ones too when `streaming` is true). A
 * client that goes away cancels the run, which aborts the running tools.
 */
export function registerRunRoutes(app: Hono<ApiEnv>, parts: ApiServerParts): void {
  app.post("/run", async (context) => {
    const run = await startRun(context.req.raw, context.get("tokenUserId"), parts, false);
    const events: Event[] = [];
    try {
      for (let next = await run.first; !next.done; next = await run.events.next()) events.push(next.value);
    } finally {
      run.cancel();
    }
    return context.json(events);
  });

  app.post("/run_sse", async (context) => {
    const run = await startRun(context.req.raw, context.get("tokenUserId"), parts, undefined);
    const encoder = new TextEncoder();
    const line = (data: unknown) => encoder.encode(`data: ${JSON.stringify(data)}\n\n`);
    // The first step ran before the response: an answer refused by the runner is still a 4xx, not a broken stream.
    let pending: IteratorResult<Event, void> | undefined = await run.first;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = pending ?? (await run.events.next());
          pending = undefined;
          if (next.done) {
            if (run.shutDown()) controller.enqueue(line({ error: new ServerShuttingDownError().message, code: "SERVER_SHUTTING_DOWN" }));
            controller.close();
            run.cancel();
          } else controller.enqueue(line(next.value));
        } catch (error) {
          controller.enqueue(line({ error: toHttpError(error).message }));
          controller.close();
        }
      },
      cancel() {
        run.cancel();
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" } });
  });
}

interface StartedRun {
  /** The first step, awaited by the route before it answers. */
  first: Promise<IteratorResult<Event, void>>;
  events: AsyncGenerator<Event, void, undefined>;
  cancel(): void;
  /** Whether a shutdown stopped the run (the client is told so after its last event). */
  shutDown(): boolean;
}

async function startRun(request: Request, tokenUserId: string | undefined, { registry, runs }: ApiServerParts, streamingDefault: boolean | undefined): Promise<StartedRun> {
  if (runs.draining) throw new HttpError(503, "SERVER_DRAINING", "This server is shutting down and takes no new runs. Send the run again: another replica (or this server once restarted) takes it.");
  const body = await readJsonObject(request);
  const appName = requiredString(body, "appName");
  const userId = requiredString(body, "userId");
  const sessionId = requiredString(body, "sessionId");
  if (tokenUserId !== undefined && tokenUserId !== userId) throw new SessionNotFoundError({ appName, userId, sessionId });
  const newMessage = optionalMessage(body);
  const stateDelta = optionalObject(body, "stateDelta");
  const streaming = streamingDefault ?? body.streaming === true;
  const runner = await registry.runner(appName);
  const abort = new RunCancellation();
  const onClientGone = () => abort.abort(new Error("The client disconnected."));
  request.signal.addEventListener("abort", onClientGone, { once: true });
  const events = runner.runAsync({ userId, sessionId, newMessage, stateDelta, runConfig: { streamingMode: streaming ? "sse" : "none", streamAgentToolEvents: body.streamAgentToolEvents === true }, abortSignal: abort.signal });
  const untrack = runs.track((reason) => abort.abort(reason));
  const cancel = () => {
    request.signal.removeEventListener("abort", onClientGone);
    if (!abort.aborted) abort.abort(new Error("The run was cancelled."));
    void events.return(undefined).catch(() => undefined).finally(untrack);
  };
  const first = events.next();
  first.catch(() => cancel());
  await first;
  return { first, events, cancel, shutDown: () => abort.signal.reason instanceof ServerShuttingDownError };
}


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
    const lineText = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
    // The first step ran before the response: an answer refused by the runner is still a 4xx, not a broken stream.
    let pending: IteratorResult<Event, void> | undefined = await run.first;
    // The runner's next event, asked for and not yet sent; kept across pulls when it was not ready in time.
    let asked: Promise<IteratorResult<Event, void>> | undefined;
    const nextEvent = () => {
      if (!asked) {
        asked = run.events.next();
        asked.catch(() => undefined); // awaited below; a run cancelled meanwhile must not leave an unhandled rejection
      }
      return asked;
    };
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          let next = pending ?? (await nextEvent());
          pending = undefined;
          asked = undefined;
          // Events ready by the end of this turn of the event loop (a streamed reply's chunks come in bursts) go
          // out in one write: one system call for the burst instead of one per event.
          let text = "";
          while (!next.done) {
            text += lineText(next.value);
            const ready = await Promise.race([nextEvent(), endOfTurn()]);
            if (ready === NOT_READY) break;
            asked = undefined;
            next = ready;
          }
          if (next.done && run.shutDown()) text += lineText({ error: new ServerShuttingDownError().message, code: "SERVER_SHUTTING_DOWN" });
          if (text) controller.enqueue(encoder.encode(text));
          if (next.done) {
            controller.close();
            run.cancel();
          }
        } catch (error) {
          controller.enqueue(encoder.encode(lineText({ error: toHttpError(error).message })));
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

const NOT_READY = Symbol("not ready");

/** Resolves after the I/O of this turn of the event loop: what is ready by then is sent together. */
function endOfTurn(): Promise<typeof NOT_READY> {
  return new Promise((resolve) => setImmediate(() => resolve(NOT_READY)));
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


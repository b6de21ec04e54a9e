import { RunCancellation } from "../agents/run-cancellation.js";
import { ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Hono } from "hono";
import { SessionNotFoundError } from "../errors/toolsmith-error.js";
import type { Event } from "../events/event.js";
import { authorizeStateWrite, type ApiEnv, type ApiServerParts } from "./api-env.js";
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
    const run = await startRun(context.req.raw, nodeResponseOf(context.env), context.get("tokenUserId"), parts, false);
    const events: Event[] = [];
    let finished = false;
    try {
      for (let next = await run.first; !next.done; next = await run.events.next()) events.push(next.value);
      finished = true;
    } finally {
      if (finished) run.finish();
      else run.cancel();
    }
    return context.json(events);
  });

  app.post("/run_sse", async (context) => {
    const outgoing = nodeResponseOf(context.env);
    const run = await startRun(context.req.raw, outgoing, context.get("tokenUserId"), parts, undefined);
    const bursts = sseBursts(run);
    if (outgoing) {
      // Written straight to Node's response: a WHATWG stream between the run and the socket cost every event
      // a reader, a pull and an encoded copy. The adapter is told with its own marker, and writes nothing.
      void writeBursts(bursts, outgoing, () => context.res.headers).catch((error: unknown) => outgoing.destroy(error instanceof Error ? error : undefined));
      return RESPONSE_ALREADY_SENT;
    }
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const burst = await bursts.next();
        if (burst.done) return controller.close();
        controller.enqueue(encoder.encode(burst.value));
      },
      cancel() {
        run.cancel();
      },
    });
    return new Response(stream, { headers: SSE_HEADERS });
  });
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" };
/** Headers of the marker response that are not the client's: the adapter's marker, and what SSE sets itself. */
const NOT_FORWARDED = new Set(["x-hono-already-sent", "content-type", "content-length"]);

/** Node's response under a request served by `@hono/node-server`; undefined elsewhere (`app.request`, other runtimes). */
function nodeResponseOf(env: unknown): ServerResponse | undefined {
  const outgoing = (env as { outgoing?: unknown } | undefined)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}

/**
 * Writes the bursts to the socket, waiting for it to drain when it is full. The head goes out once the
 * middleware has finished with the response (after this turn of the event loop), with the headers it set on the
 * way back (the request id, CORS's `Vary`). A client that goes away aborts the run (`startRun` hears the
 * response close); leaving the loop then ends the bursts, which cancels what is left of it.
 */
async function writeBursts(bursts: AsyncGenerator<string, void, undefined>, outgoing: ServerResponse, finalHeaders: () => Headers): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  for (const [name, value] of finalHeaders()) if (!NOT_FORWARDED.has(name)) outgoing.setHeader(name, value);
  outgoing.writeHead(200, SSE_HEADERS);
  for await (const text of bursts) {
    if (outgoing.destroyed) return;
    // Held until the pending callbacks of this moment ran: a burst that turns out to be the last goes out with
    // the stream's end in one system call, not two.
    outgoing.cork();
    process.nextTick(() => outgoing.uncork());
    // A write refused because the client is gone (the response already closed) will never drain.
    if (!outgoing.write(text) && !outgoing.destroyed) await drainedOrClosed(outgoing);
  }
  outgoing.end();
}

/** Resolves when a full socket buffer drained, or when the response closed (a client gone never drains). */
function drainedOrClosed(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("drain", done);
      outgoing.off("close", done);
      resolve();
    };
    outgoing.on("drain", done);
    outgoing.on("close", done);
  });
}

const lineText = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

/**
 * The run's events as SSE text, one piece per burst: events ready by the end of a turn of the event loop (a
 * streamed reply's chunks come in bursts) go out in one write, one system call for the burst instead of one per
 * event; each later event still goes out as soon as it comes. A run a shutdown stopped ends with a line saying so;
 * a failure mid-stream ends it with an error line. A run left before its end (the client gone) is cancelled.
 */
async function* sseBursts(run: StartedRun): AsyncGenerator<string, void, undefined> {
  // The first step ran before the response: an answer refused by the runner is still a 4xx, not a broken stream.
  let pending: IteratorResult<Event, void> | undefined = await run.first;
  // The runner's next event, asked for and not yet sent; kept across bursts when it was not ready in time.
  let asked: Promise<IteratorResult<Event, void>> | undefined;
  const nextEvent = () => {
    if (!asked) {
      asked = run.events.next();
      asked.catch(() => undefined); // awaited below; a run cancelled meanwhile must not leave an unhandled rejection
    }
    return asked;
  };
  let finished = false;
  try {
    for (;;) {
      let next = pending ?? (await nextEvent());
      pending = undefined;
      asked = undefined;
      let text = "";
      while (!next.done) {
        text += lineText(next.value);
        const ready = await Promise.race([nextEvent(), endOfTurn()]);
        if (ready === NOT_READY) break;
        asked = undefined;
        next = ready;
      }
      if (next.done && run.shutDown()) text += lineText({ error: new ServerShuttingDownError().message, code: "SERVER_SHUTTING_DOWN" });
      finished = next.done === true;
      if (text) yield text;
      if (finished) return;
    }
  } catch (error) {
    yield lineText({ error: toHttpError(error).message });
  } finally {
    if (finished) run.finish();
    else run.cancel();
  }
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
  /** Stops the run: its signal aborts (running tools see it) and its events end. */
  cancel(): void;
  /** Lets go of a run whose events all came: nothing is aborted, nothing is left listening. */
  finish(): void;
  /** Whether a shutdown stopped the run (the client is told so after its last event). */
  shutDown(): boolean;
}

async function startRun(request: Request, outgoing: ServerResponse | undefined, tokenUserId: string | undefined, { registry, runs }: ApiServerParts, streamingDefault: boolean | undefined): Promise<StartedRun> {
  if (runs.draining) throw new HttpError(503, "SERVER_DRAINING", "This server is shutting down and takes no new runs. Send the run again: another replica (or this server once restarted) takes it.");
  const body = await readJsonObject(request);
  const appName = requiredString(body, "appName");
  const userId = requiredString(body, "userId");
  const sessionId = requiredString(body, "sessionId");
  if (tokenUserId !== undefined && tokenUserId !== userId) throw new SessionNotFoundError({ appName, userId, sessionId });
  const newMessage = optionalMessage(body);
  const stateDelta = optionalObject(body, "stateDelta");
  authorizeStateWrite(tokenUserId, stateDelta, "stateDelta");
  const streaming = streamingDefault ?? body.streaming === true;
  const runner = await registry.runner(appName);
  const abort = new RunCancellation();
  const onClientGone = () => abort.abort(new Error("The client disconnected."));
  // Over Node's server the response's own close says the client went (a request's signal would cost an
  // AbortController per request); closing after the last event comes once the run is let go, and does nothing.
  if (outgoing) outgoing.once("close", onClientGone);
  else request.signal.addEventListener("abort", onClientGone, { once: true });
  const events = runner.runAsync({ userId, sessionId, newMessage, stateDelta, runConfig: { streamingMode: streaming ? "sse" : "none", streamAgentToolEvents: body.streamAgentToolEvents === true }, abortSignal: abort.signal });
  const untrack = runs.track((reason) => abort.abort(reason));
  let released = false;
  const release = () => {
    if (released) return false;
    released = true;
    if (outgoing) outgoing.off("close", onClientGone);
    else request.signal.removeEventListener("abort", onClientGone);
    return true;
  };
  const cancel = () => {
    if (!release()) return;
    if (!abort.aborted) abort.abort(new Error("The run was cancelled."));
    void events.return(undefined).catch(() => undefined).finally(untrack);
  };
  // Aborting a finished run would only wake every listener of its signal (each tool call's) for nothing.
  const finish = () => {
    if (release()) untrack();
  };
  const first = events.next();
  first.catch(() => cancel());
  await first;
  return { first, events, cancel, finish, shutDown: () => abort.signal.reason instanceof ServerShuttingDownError };
}


import type { AddressInfo } from "node:net";
import express from "express";
import type { Agent } from "../../src/agents/agent.js";
import { toA2a, type ToA2aOptions } from "../../src/a2a/index.js";
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from "../../src/index.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";
import type { Event } from "../../src/events/event.js";
import type { Content } from "../../src/content/content.js";

/** An agent served with toA2a on a free loopback port; its card names that port. */
export async function serveA2A(agent: Agent, options: ToA2aOptions = {}) {
  const app = express();
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const port = (server.address() as AddressInfo).port;
  const sessionService = options.sessionService ?? new InMemorySessionService();
  app.use(express.json());
  await toA2a(agent, { allowUnauthenticated: true, ...options, app, host: "127.0.0.1", port, sessionService });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    sessionService,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).finally(() => server.closeAllConnections?.()),
    /** The sessions the server keeps, one per A2A context, with their events. */
    async storedSessions() {
      const { sessions } = await sessionService.listSessions({ appName: agent.name });
      return Promise.all(sessions.map((session) => sessionService.getSession({ appName: agent.name, userId: session.userId, sessionId: session.id })));
    },
  };
}

/** A runner for `agent` on a new in-memory session, with a `turn` that runs a message and returns every event. */
export async function clientOf(agent: Agent) {
  const runner = new Runner({ appName: "client", agent, sessionService: new InMemorySessionService() });
  const session = await runner.sessionService.createSession({ appName: "client", userId: "u" });
  const turn = async (message: string | Content) => {
    const events: Event[] = [];
    const newMessage = typeof message === "string" ? { role: "user", parts: [{ text: message }] } : message;
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage })) events.push(event);
    return events;
  };
  const stored = async () => (await runner.sessionService.getSession({ appName: "client", userId: "u", sessionId: session.id }))!.events;
  return { runner, session, turn, stored };
}

/** An event's parts in brief: text, or the kind of its first non-text part. */
export function brief(event: Event): string {
  if (event.errorCode) return `error ${event.errorCode}`;
  return (event.content?.parts ?? []).map((part) => part.text ?? (part.functionCall ? `call ${part.functionCall.name}` : part.functionResponse ? `response ${part.functionResponse.name}` : Object.keys(part)[0])).join(" + ");
}

/**
 * An agent whose tool waits for a shipment until its run is cancelled, for cancellation tests: `started` resolves
 * once the tool runs, and `stopReason()` is its abort's reason once it was told to stop (undefined before).
 */
export function shipmentWaiter() {
  let toolStarted!: () => void;
  const started = new Promise<void>((resolve) => (toolStarted = resolve));
  let stopped: { reason: unknown } | undefined;
  const wait = new FunctionTool({
    name: "wait_for_shipment",
    description: "Waits until the shipment arrives.",
    parameters: { type: "object", properties: {} },
    execute: (_args, context) =>
      new Promise((resolve) => {
        toolStarted();
        context.abortSignal.addEventListener("abort", () => {
          stopped = { reason: context.abortSignal.reason };
          resolve({ arrived: false });
        });
      }),
  });
  const model = new ScriptedModel([functionCallsResponse({ name: "wait_for_shipment" }), textResponse("It arrived.")]);
  const agent = new LlmAgent({ name: "shipping", description: "Tracks parcels.", model, instruction: "Track.", tools: [wait] });
  return { agent, model, started, stopped: () => stopped };
}

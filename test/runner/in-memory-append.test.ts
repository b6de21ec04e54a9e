/**
 * The runner stores a run's events in the in-memory store without awaiting each append (its append is done at
 * once), and through `appendEvent` for every other store, or for an in-memory store whose `appendEvent` was
 * replaced: a subclass's or an instance's own method is called for every event, as ADK's runner calls it.
 */
import { describe, expect, it } from "vitest";
import { createEvent, FunctionTool, InMemorySessionService, LlmAgent, Runner, type AppendEventRequest, type Event, type SessionService } from "../../src/index.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import { synchronousAppend } from "../../src/sessions/in-memory-session-service.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { z } from "zod";

const echo = new FunctionTool({ name: "echo", description: "Echoes.", parameters: z.object({ i: z.number() }), execute: ({ i }) => ({ i }) });

function agentCallingEcho(toolExecute?: FunctionTool<any>) {
  const model = new ScriptedModel([functionCallsResponse({ name: "echo", args: { i: 1 } }), textResponse("done")]);
  return new LlmAgent({ name: "a", model, tools: [toolExecute ?? echo] });
}

async function runOnce(sessionService: SessionService, agent = agentCallingEcho()) {
  const runner = new Runner({ appName: "app", agent, sessionService });
  const session = await sessionService.createSession({ appName: "app", userId: "u", state: { kept: "yes" } });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
  const stored = await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
  return { events, stored: stored! };
}

describe("synchronousAppend", () => {
  it("stores an event in the in-memory store before anything is awaited", async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession({ appName: "app", userId: "u" });
    const append = synchronousAppend(service)!;
    const returned = append({ session, event: { id: "e1", invocationId: "i", author: "user", actions: { stateDelta: { step: 1 }, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} }, timestamp: Date.now() } as Event });
    expect(returned.id).toBe("e1");
    // The caller's copy of the session took the event and its state at once, as appendEvent's does.
    expect(session.events.map((event) => event.id)).toEqual(["e1"]);
    expect(session.state.step).toBe(1);
    const stored = await service.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.events.map((event) => event.id)).toEqual(["e1"]);
    expect(stored!.state.step).toBe(1);
  });

  it("is offered for the in-memory store and a subclass that keeps its appendEvent", () => {
    class Named extends InMemorySessionService {
      readonly label = "named";
    }
    expect(synchronousAppend(new InMemorySessionService())).toBeTypeOf("function");
    expect(synchronousAppend(new Named())).toBeTypeOf("function");
  });

  it("is not offered when appendEvent was replaced, for a proxy, or for another store", () => {
    class Logging extends InMemorySessionService {
      override async appendEvent(request: AppendEventRequest): Promise<Event> {
        return super.appendEvent(request);
      }
    }
    const patched = new InMemorySessionService();
    patched.appendEvent = async (request) => InMemorySessionService.prototype.appendEvent.call(patched, request);
    const proxied = new Proxy(new InMemorySessionService(), {});
    expect(synchronousAppend(new Logging())).toBeUndefined();
    expect(synchronousAppend(patched)).toBeUndefined();
    expect(synchronousAppend(proxied)).toBeUndefined();
    expect(synchronousAppend(new SqliteSessionService({ path: ":memory:" }))).toBeUndefined();
  });
});

describe("the runner's appends", () => {
  it("stores every event of a run in the in-memory store, in the order the caller got them", async () => {
    const { events, stored } = await runOnce(new InMemorySessionService());
    expect(events.map((event) => event.author)).toEqual(["a", "a", "a"]);
    expect(stored.events.map((event) => event.id)).toEqual([stored.events[0]!.id, ...events.map((event) => event.id)]);
    expect(stored.events[0]).toMatchObject({ author: "user", content: userMessage("go") });
  });

  it("calls a subclass's appendEvent for every event, the user's first", async () => {
    const seen: string[] = [];
    class Logging extends InMemorySessionService {
      override async appendEvent(request: AppendEventRequest): Promise<Event> {
        seen.push(request.event.author);
        return super.appendEvent(request);
      }
    }
    const { events, stored } = await runOnce(new Logging());
    expect(seen).toEqual(["user", "a", "a", "a"]);
    expect(stored.events).toHaveLength(events.length + 1);
  });

  it("calls an appendEvent replaced on the instance for every event", async () => {
    const service = new InMemorySessionService();
    const original = service.appendEvent.bind(service);
    let calls = 0;
    service.appendEvent = (request) => {
      calls++;
      return original(request);
    };
    const { stored } = await runOnce(service);
    expect(calls).toBe(4);
    expect(stored.events).toHaveLength(4);
  });

  it("calls an appendEvent patched on the class's prototype for every event", async () => {
    const original = InMemorySessionService.prototype.appendEvent;
    const seen: string[] = [];
    InMemorySessionService.prototype.appendEvent = async function (this: InMemorySessionService, request) {
      seen.push(request.event.author);
      return original.call(this, request);
    };
    try {
      expect(synchronousAppend(new InMemorySessionService())).toBeUndefined();
      const { stored } = await runOnce(new InMemorySessionService());
      expect(seen).toEqual(["user", "a", "a", "a"]);
      expect(stored.events).toHaveLength(4);
    } finally {
      InMemorySessionService.prototype.appendEvent = original;
    }
    expect(synchronousAppend(new InMemorySessionService())).toBeTypeOf("function");
  });

  it("runs over a proxy of the in-memory store, through its appendEvent", async () => {
    const target = new InMemorySessionService();
    const appended: string[] = [];
    const proxied = new Proxy(target, {
      get(service, key) {
        const value = Reflect.get(service, key, service) as unknown;
        if (key === "appendEvent") {
          return (request: AppendEventRequest) => {
            appended.push(request.event.author);
            return target.appendEvent(request);
          };
        }
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(service) : value;
      },
    });
    const { stored } = await runOnce(proxied);
    expect(appended).toEqual(["user", "a", "a", "a"]);
    expect(stored.events.at(-1)!.content!.parts![0]!.text).toBe("done");
  });

  it("ends the run with the store's error when an append made at once refuses the event, keeping what was stored", async () => {
    const service = new InMemorySessionService();
    const other = await service.createSession({ appName: "app", userId: "u" });
    // While the run's tool works, another session of the same user changes the user's count: the run's write of
    // the count, made from the value it read, is refused when its response event is appended.
    const countsUp = new FunctionTool({
      name: "echo",
      description: "Counts.",
      parameters: z.object({ i: z.number() }),
      execute: async (_args, context) => {
        await service.appendEvent({ session: other, event: createEvent({ invocationId: "elsewhere", author: "user", actions: { stateDelta: { "user:count": 5 } } }) });
        context.state.set("user:count", 1);
        return { ok: true };
      },
    });
    const { events, stored } = await runOnce(service, agentCallingEcho(countsUp));
    const last = events.at(-1)!;
    expect(last).toMatchObject({ errorCode: "SHARED_STATE_CONFLICT", errorMessage: expect.stringMatching(/user:count/) });
    // The user's message, the model's call and the error were stored; the refused response was not; state kept.
    expect(stored.events.map((event) => event.author)).toEqual(["user", "a", "a"]);
    expect(stored.events.at(-1)!.errorCode).toBe("SHARED_STATE_CONFLICT");
    expect(stored.state).toEqual({ kept: "yes", "user:count": 5 });
  });
});

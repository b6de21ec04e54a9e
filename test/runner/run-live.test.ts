/**
 * `Runner.runLive` with toolsmith's scripted live model: what is yielded and stored, how the run ends (the queue
 * closed, the signal, the caller stopping), failures as error events, reconnection with resumption handles,
 * workflow agents, plugins and what tools write.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BaseAgent, BasePlugin, FunctionTool, InMemoryRunner, LiveRequestQueue, LlmAgent, LoopAgent, ParallelAgent, SequentialAgent, type Event, type InvocationContext } from "../../src/index.js";
import { ScriptedLiveModel, type ScriptedLiveStep } from "../../src/testing/index.js";

const user = (text: string) => ({ role: "user", parts: [{ text }] });
const said = (text: string, partial?: boolean) => ({ content: { role: "model", parts: [{ text }] }, ...(partial ? { partial: true } : {}) });
const callOf = (name: string, args: Record<string, unknown> = {}) => ({ content: { role: "model", parts: [{ functionCall: { name, args } }] } });

/** Runs live until `closeWhen` says so (by default at the first `turnComplete`); the events and the stored session. */
async function runLive(agent: ConstructorParameters<typeof InMemoryRunner>[0]["agent"], send: (queue: LiveRequestQueue) => void, options: { closeWhen?: (event: Event) => boolean; runConfig?: Record<string, unknown>; abortSignal?: AbortSignal; handle?: string; plugins?: BasePlugin[] } = {}) {
  const runner = new InMemoryRunner({ agent: agent!, appName: "app", ...(options.plugins ? { plugins: options.plugins } : {}) });
  const queue = new LiveRequestQueue();
  send(queue);
  const events: Event[] = [];
  const closeWhen = options.closeWhen ?? ((event: Event) => event.turnComplete === true);
  for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue, ...(options.runConfig ? { runConfig: options.runConfig } : {}), ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}), ...(options.handle ? { liveSessionResumptionHandle: options.handle } : {}) })) {
    events.push(event);
    if (!queue.isClosed && closeWhen(event)) queue.close();
  }
  const session = (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: "s" }))!;
  return { events, stored: session.events, session, queue, runner };
}

const weather = new FunctionTool({ name: "get_weather", description: "The weather.", parameters: z.object({ city: z.string() }), execute: ({ city }, context) => {
  context.state.set("last_city", city);
  return { city, sky: "sunny" };
} });

describe("Runner.runLive", () => {
  it("makes the session, streams the answer, stores the complete events only, and ends when the queue closes", async () => {
    const model = new ScriptedLiveModel([[said("Hel", true), said("lo", true), said("Hello"), { turnComplete: true, usageMetadata: { totalTokenCount: 12 } }]]);
    const { events, stored, session } = await runLive(new LlmAgent({ name: "greeter", model }), (queue) => queue.sendContent(user("Hi")), { runConfig: { responseModalities: ["TEXT"] } });
    expect(session.id).toBe("s");
    expect(events.map((event) => [event.author, event.partial ?? false, event.content?.parts?.[0]?.text ?? null, event.turnComplete ?? false])).toEqual([
      ["user", false, "Hi", false],
      ["greeter", true, "Hel", false],
      ["greeter", true, "lo", false],
      ["greeter", false, "Hello", false],
      ["greeter", false, null, true],
    ]);
    expect(stored.map((event) => event.id)).toEqual(events.filter((event) => !event.partial).map((event) => event.id));
    expect(stored.at(-1)!.usageMetadata).toEqual({ totalTokenCount: 12 });
    expect(model.connections).toHaveLength(1);
    expect(model.connections[0]!.closed).toBe(true);
    model.assertComplete();
  });

  it("stores each message the program sends before the model hears it, so the history holds the whole conversation", async () => {
    const model = new ScriptedLiveModel([[said("One."), { turnComplete: true }], [said("Two."), { turnComplete: true }]]);
    const agent = new LlmAgent({ name: "voice", model });
    let completed = 0;
    const { stored } = await runLive(agent, (queue) => {
      queue.sendContent(user("First"));
      queue.sendContent({ parts: [{ text: "Second" }] });
    }, { closeWhen: (event) => event.turnComplete === true && ++completed === 2 });
    expect(stored.filter((event) => event.content).map((event) => [event.author, event.content!.role, event.content!.parts![0]!.text])).toEqual([
      ["user", "user", "First"],
      ["voice", "model", "One."],
      ["user", "user", "Second"],
      ["voice", "model", "Two."],
    ]);
  });

  it("runs the model's calls as runAsync does, stores what the tool wrote, and sends the results back on the connection", async () => {
    const model = new ScriptedLiveModel([[callOf("get_weather", { city: "Paris" })], [said("Sunny in Paris."), { turnComplete: true }]]);
    const { events, session } = await runLive(new LlmAgent({ name: "weather", model, tools: [weather] }), (queue) => queue.sendContent(user("Weather in Paris?")), { runConfig: { responseModalities: ["TEXT"] } });
    expect(events[0]).toMatchObject({ author: "user", content: user("Weather in Paris?") });
    const call = events[1]!.content!.parts![0]!.functionCall!;
    expect(call.id).toMatch(/^adk-/);
    const response = events[2]!.content!.parts![0]!.functionResponse!;
    expect(response).toEqual({ id: call.id, name: "get_weather", response: { city: "Paris", sky: "sunny" } });
    expect(session.state.last_city).toBe("Paris");
    expect(model.connections[0]!.sent).toEqual([{ content: user("Weather in Paris?") }, { content: { role: "user", parts: [{ functionResponse: response }] } }]);
    expect(model.connections[0]!.request.functionDeclarations.map((declaration) => declaration.name)).toEqual(["get_weather"]);
  });

  it("an argument the tool's schema refuses is answered to the model as an error it can fix, and the run goes on", async () => {
    const model = new ScriptedLiveModel([[callOf("get_weather", { town: "Paris" })], [said("Which city?"), { turnComplete: true }]]);
    const { events } = await runLive(new LlmAgent({ name: "weather", model, tools: [weather] }), (queue) => queue.sendContent(user("Weather?")));
    const answer = events[2]!.content!.parts![0]!.functionResponse!.response as Record<string, unknown>;
    expect(JSON.stringify(answer)).toContain("city");
    expect(events.at(-1)!.turnComplete).toBe(true);
  });

  it("sends the stored history when it connects, and the model answers it when the user spoke last", async () => {
    const model = new ScriptedLiveModel([[said("Welcome back."), { turnComplete: true }]]);
    const agent = new LlmAgent({ name: "greeter", model });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u", sessionId: "s" });
    await runner.sessionService.appendEvent({ session, event: { ...(await import("../../src/index.js")).createEvent({ author: "user", content: user("Remember me?") }) } });
    const queue = new LiveRequestQueue();
    for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue })) if (event.turnComplete) queue.close();
    expect(model.connections[0]!.sent[0]).toEqual({ history: [user("Remember me?")] });
    expect(model.connections[0]!.request.liveConnectConfig).toEqual({ responseModalities: ["AUDIO"] });
  });

  it("shows raw audio but does not store it, and stores a finished transcription of the user authored user", async () => {
    const audio = { inlineData: { mimeType: "audio/pcm;rate=24000", data: "AAAA" } };
    const model = new ScriptedLiveModel([[{ inputTranscription: { text: "hello", finished: true } }, { content: { role: "model", parts: [audio] } }, { outputTranscription: { text: "hi", finished: true } }, { turnComplete: true }]]);
    const { events, stored } = await runLive(new LlmAgent({ name: "voice", model }), (queue) => {
      queue.sendRealtime({ mimeType: "audio/pcm;rate=16000", data: "AQID" });
      queue.sendActivityEnd();
    });
    expect(events.map((event) => event.author)).toEqual(["user", "voice", "voice", "voice"]);
    expect(stored.map((event) => [event.author, event.inputTranscription?.text ?? event.outputTranscription?.text ?? (event.turnComplete ? "turnComplete" : "?")])).toEqual([["user", "hello"], ["voice", "hi"], ["voice", "turnComplete"]]);
    expect(model.connections[0]!.sent).toEqual([{ blob: { mimeType: "audio/pcm;rate=16000", data: "AQID" } }, { activityEnd: true }]);
  });

  it("stops when the signal aborts: the connection is closed and no more events come", async () => {
    const stop = new AbortController();
    const model = new ScriptedLiveModel([[said("First.")], [said("Never shown."), { turnComplete: true }]]);
    const { events } = await runLive(new LlmAgent({ name: "voice", model }), (queue) => queue.sendContent(user("Go")), {
      abortSignal: stop.signal,
      closeWhen: (event) => {
        if (event.content?.parts?.[0]?.text === "First.") stop.abort();
        return false;
      },
    });
    expect(events.map((event) => event.content?.parts?.[0]?.text)).toEqual(["Go", "First."]);
    expect(model.connections[0]!.closed).toBe(true);
  });

  it("closes the connection when the caller stops reading", async () => {
    const model = new ScriptedLiveModel([[said("One."), said("Two."), { turnComplete: true }]]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "voice", model }), appName: "app" });
    const queue = new LiveRequestQueue();
    queue.sendContent(user("Go"));
    for await (const event of runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: queue })) if (event.content) break;
    expect(model.connections[0]!.closed).toBe(true);
    expect(queue.isClosed).toBe(false);
  });

  it("a connection that cannot be made ends the run with a stored LIVE_CONNECTION_FAILED event saying what to check", async () => {
    const model = new ScriptedLiveModel([], { connectErrors: [new Error("getaddrinfo ENOTFOUND live.example")] });
    const { events, stored } = await runLive(new LlmAgent({ name: "voice", model }), (queue) => queue.sendContent(user("Go")));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author: "voice", errorCode: "LIVE_CONNECTION_FAILED" });
    expect(events[0]!.errorMessage).toBe('The live connection to model "scripted-live-model" failed: getaddrinfo ENOTFOUND live.example. Check the model name (a live model), the network and the key, then run again.');
    expect(stored.map((event) => event.errorCode)).toEqual(["LIVE_CONNECTION_FAILED"]);
  });

  it("a model that cannot connect ends the run with LIVE_UNSUPPORTED", async () => {
    const { ScriptedModel } = await import("../../src/testing/index.js");
    const { events } = await runLive(new LlmAgent({ name: "voice", model: new ScriptedModel([]) }), (queue) => queue.sendContent(user("Go")));
    expect(events[0]).toMatchObject({ errorCode: "LIVE_UNSUPPORTED" });
    expect(events[0]!.errorMessage).toContain('Model "scripted-model" cannot run live: it has no connect().');
  });

  it("a dropped socket with a resumption handle reconnects with the handle and does not send the history again", async () => {
    const dropped = Object.assign(new Error("socket closed abnormally"), { code: 1006 });
    const model = new ScriptedLiveModel([[{ liveSessionResumptionUpdate: { newHandle: "h-7", resumable: true } }, said("Part one.")], dropped, [said("Part two."), { turnComplete: true }]]);
    const { events, stored } = await runLive(new LlmAgent({ name: "voice", model }), (queue) => {
      queue.sendContent(user("Tell me"));
      queue.sendContent(user("Go on"));
      setTimeout(() => queue.sendContent(user("Still there?")), 30);
    });
    expect(model.connections).toHaveLength(2);
    expect(model.connections[1]!.request.liveConnectConfig!.sessionResumption).toEqual({ handle: "h-7", transparent: true });
    expect(model.connections[1]!.sent).toEqual([{ content: user("Still there?") }]);
    expect(events.filter((event) => event.content && event.author === "voice").map((event) => event.content!.parts![0]!.text)).toEqual(["Part one.", "Part two."]);
    expect(events.filter((event) => event.author === "user").map((event) => event.content!.parts![0]!.text)).toEqual(["Tell me", "Go on", "Still there?"]);
    expect(stored.some((event) => event.liveSessionResumptionUpdate?.newHandle === "h-7")).toBe(true);
  });

  it("without a handle a dropped socket ends the run with its error, stored", async () => {
    const dropped = Object.assign(new Error("socket closed abnormally"), { code: 1006 });
    const model = new ScriptedLiveModel([dropped]);
    const { events } = await runLive(new LlmAgent({ name: "voice", model }), (queue) => queue.sendContent(user("Go")));
    expect(model.connections).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ errorCode: "RUN_FAILED" });
    expect(events.at(-1)!.errorMessage).toContain("socket closed abnormally");
  });

  it("gives up after five failed reconnections in a row", async () => {
    const refused = () => Object.assign(new Error("connection closed"), { code: 1006 });
    const model = new ScriptedLiveModel([], { connectErrors: [refused(), refused(), refused(), refused(), refused(), refused()] });
    const { events } = await runLive(new LlmAgent({ name: "voice", model }), (queue) => queue.sendContent(user("Go")), { handle: "h-old" });
    expect(events.at(-1)).toMatchObject({ errorCode: "LIVE_CONNECTION_FAILED" });
    expect(events.at(-1)!.errorMessage).toContain("after 5 attempts to take the session up again");
    expect(model.connections).toHaveLength(0);
  });

  it("runConfig.sessionResumption asks for handles, and a reconnection keeps it with the latest handle", async () => {
    const model = new ScriptedLiveModel([[{ liveSessionResumptionUpdate: { newHandle: "h-1", resumable: true } }, { goAway: { timeLeft: "1s" } }], [said("Back."), { turnComplete: true }]]);
    await runLive(new LlmAgent({ name: "voice", model }), (queue) => {
      queue.sendContent(user("Hi"));
      setTimeout(() => queue.sendContent(user("Still there?")), 20);
    }, { runConfig: { sessionResumption: {} } });
    expect(model.connections.map((connection) => connection.request.liveConnectConfig!.sessionResumption)).toEqual([{}, { handle: "h-1", transparent: true }]);
  });

  it("a handle given to runLive opens the first connection with it and sends no history", async () => {
    const model = new ScriptedLiveModel([[said("Resumed."), { turnComplete: true }]]);
    await runLive(new LlmAgent({ name: "voice", model }), (queue) => queue.sendContent(user("Where were we?")), { handle: "h-earlier" });
    expect(model.connections[0]!.request.liveConnectConfig!.sessionResumption).toEqual({ handle: "h-earlier", transparent: true });
    expect(model.connections[0]!.sent).toEqual([{ content: user("Where were we?") }]);
  });

  it("a LoopAgent runs its agents live in turn until one escalates", async () => {
    const escalate = new FunctionTool({ name: "done", description: "Ends the loop.", execute: (_args, context) => {
      context.actions.escalate = true;
      return { ok: true };
    } });
    const model = new ScriptedLiveModel([[callOf("done")], []]);
    const loop = new LoopAgent({ name: "loop", maxIterations: 3, subAgents: [new LlmAgent({ name: "worker", model, tools: [escalate] })] });
    const { events } = await runLive(loop, (queue) => queue.sendContent(user("Go")), { closeWhen: () => false });
    expect(events.map((event) => event.author)).toEqual(["user", "worker", "worker"]);
    expect(events[2]!.actions.escalate).toBe(true);
    expect(model.connections).toHaveLength(1);
  });

  it("a ParallelAgent, or a custom agent without runLiveImpl, ends the run with LIVE_UNSUPPORTED naming it", async () => {
    const model = new ScriptedLiveModel([]);
    const parallel = await runLive(new ParallelAgent({ name: "fanout", subAgents: [new LlmAgent({ name: "a", model })] }), () => {});
    expect(parallel.events[0]).toMatchObject({ errorCode: "LIVE_UNSUPPORTED" });
    expect(parallel.events[0]!.errorMessage).toContain('ParallelAgent "fanout" cannot run live');
    class Custom extends BaseAgent {
      protected async *runAsyncImpl(_context: InvocationContext): AsyncGenerator<Event, void, undefined> {}
    }
    const custom = await runLive(new Custom({ name: "custom" }), () => {});
    expect(custom.events[0]!.errorMessage).toBe('Agent "custom" (Custom) cannot run live: it does not implement runLiveImpl. Implement it, or run the agent with runAsync.');
  });

  it("a SequentialAgent's agents are offered task_completed only while they run live under it", async () => {
    const model = new ScriptedLiveModel([[callOf("task_completed")], [], [said("Next."), { turnComplete: true }]]);
    const first = new LlmAgent({ name: "first", model, instruction: "Greet." });
    const second = new LlmAgent({ name: "second", model, instruction: "Help." });
    const { events } = await runLive(new SequentialAgent({ name: "steps", subAgents: [first, second] }), (queue) => queue.sendContent(user("Hello")));
    expect(events.map((event) => event.author)).toEqual(["user", "first", "first", "second", "second"]);
    // The second agent's connection is sent the history, the user's message in it.
    expect(model.connections[1]!.sent[0]).toMatchObject({ history: expect.arrayContaining([user("Hello")]) });
    expect(model.connections.map((connection) => connection.request.functionDeclarations.map((declaration) => declaration.name))).toEqual([["task_completed"], ["task_completed"]]);
    expect(first.tools).toEqual([]);
    expect(first.instruction).toBe("Greet.");
  });

  it("runs the plugins' run and event hooks, and a plugin's early answer ends the run before connecting", async () => {
    const seen: string[] = [];
    class Watching extends BasePlugin {
      override async onEventCallback({ event }: { event: Event }) {
        seen.push(event.turnComplete ? "turnComplete" : (event.content?.parts?.[0]?.text ?? "?"));
        return undefined;
      }
      override async afterRunCallback() {
        seen.push("after run");
      }
    }
    const model = new ScriptedLiveModel([[said("Hi."), { turnComplete: true }]]);
    await runLive(new LlmAgent({ name: "voice", model }), (queue) => queue.sendContent(user("Go")), { plugins: [new Watching("watching")] });
    expect(seen).toEqual(["Go", "Hi.", "turnComplete", "after run"]);

    class Gate extends BasePlugin {
      override async beforeRunCallback() {
        return { role: "model", parts: [{ text: "Closed for maintenance." }] };
      }
    }
    const gated = new ScriptedLiveModel([]);
    const { events, stored } = await runLive(new LlmAgent({ name: "voice", model: gated }), () => {}, { plugins: [new Gate("gate")], closeWhen: () => false });
    expect(events.map((event) => [event.author, event.content?.parts?.[0]?.text])).toEqual([["model", "Closed for maintenance."]]);
    expect(stored).toHaveLength(1);
    expect(gated.connections).toHaveLength(0);
  });

  it("refuses an option it does not know, and a run without a queue, saying what to pass", async () => {
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "voice", model: new ScriptedLiveModel([]) }), appName: "app" });
    await expect(runner.runLive({ userId: "u", sessionId: "s", liveRequestQueue: new LiveRequestQueue(), liveSessionHandle: "x" } as never).next()).rejects.toMatchObject({ code: "UNSUPPORTED_OPTION" });
    await expect(runner.runLive({ userId: "u", sessionId: "s" } as never).next()).rejects.toThrow("runLive needs a liveRequestQueue: pass runLive({ userId, sessionId, liveRequestQueue: new LiveRequestQueue() }).");
  });

  it("a failure to send what the program queued ends the run with that failure", async () => {
    const model = new ScriptedLiveModel([[said("Ready.")]]);
    const connect = model.connect.bind(model);
    model.connect = async (request) => {
      const connection = await connect(request);
      connection.sendRealtime = () => Promise.reject(new Error("audio format refused"));
      return connection;
    };
    const { events } = await runLive(new LlmAgent({ name: "voice", model }), (queue) => {
      queue.sendContent(user("Go"));
      setTimeout(() => queue.sendRealtime({ mimeType: "audio/pcm", data: "AAAA" }), 10);
    }, { closeWhen: () => false });
    expect(events.at(-1)).toMatchObject({ errorCode: "RUN_FAILED" });
    expect(events.at(-1)!.errorMessage).toContain("audio format refused");
  });
});

describe("Runner.runLive over a long conversation", () => {
  it("counts failed reconnections in a row: seven goAways, each after a working connection, do not end the run", async () => {
    const steps: ScriptedLiveStep[] = [];
    for (let index = 1; index <= 7; index++) steps.push([{ liveSessionResumptionUpdate: { newHandle: `h-${index}`, resumable: true } }, { goAway: { timeLeft: "1s" } }]);
    steps.push([said("Still here."), { turnComplete: true }]);
    const model = new ScriptedLiveModel(steps);
    let turn = 0;
    const { events } = await runLive(new LlmAgent({ name: "voice", model }), (queue) => {
      queue.sendContent(user("turn 0"));
      const timer = setInterval(() => {
        turn++;
        if (turn > 7) return clearInterval(timer);
        queue.sendContent(user(`turn ${turn}`));
      }, 15);
    });
    expect(model.connections).toHaveLength(8);
    expect(model.connections.at(-1)!.request.liveConnectConfig!.sessionResumption).toEqual({ handle: "h-7", transparent: true });
    expect(events.at(-1)!.turnComplete).toBe(true);
  });
});

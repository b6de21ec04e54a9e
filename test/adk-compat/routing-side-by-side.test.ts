import { describe, expect, it } from "vitest";
import * as adk from "@google/adk";
import * as toolsmith from "../../src/index.js";
import { isToolsmithError } from "../../src/errors/toolsmith-error.js";
import { runOn, text, type Framework } from "./side-by-side.js";

/**
 * ADK 2's routing (`RoutedLlm`, `RoutedAgent`, `isRoutedAgent`, `isRoutableLlmAgent`, `requireAgent`) on
 * `@google/adk` 2.0 and on toolsmith: the same programs, what each run yielded and stored, and what each router was
 * asked. Deliberate differences, asserted as such:
 * - when the router gives up (or picks an agent it tried), ADK's run throws the last error; toolsmith's ends with
 *   the last attempt's error event (a run never throws for what happens inside it);
 * - a toolsmith agent whose model fails yields an error event rather than throwing, so `RoutedAgent` takes an error
 *   event as the agent's first event for the failure ADK catches as a throw, and hands the router a `ToolsmithError`
 *   with the event's code and message.
 */

type Step = { content: { role: string; parts: unknown[] } } | Error;

/** A model of the framework's own `BaseLlm` playing `steps`, one per call, counting its calls. */
function scripted(f: Framework, name: string, steps: Step[]) {
  const queue = [...steps];
  const counter = { calls: 0 };
  const Base: new (options: { model: string }) => object = f.BaseLlm;
  class Played extends Base {
    async *generateContentAsync() {
      counter.calls++;
      const step = queue.shift();
      if (!step) throw new Error(`${name} has no step left`);
      if (step instanceof Error) throw step;
      yield structuredClone(step);
    }
    async connect(): Promise<never> {
      throw new Error("not live");
    }
  }
  return { model: new Played({ model: name }) as any, counter };
}

/** What a router was asked: the failed keys and the last error's message, per call. */
function recordingRouter(choices: Array<string | undefined>) {
  const asked: Array<{ failed?: string[]; error?: string }> = [];
  const router = (_items: unknown, _context: unknown, failure?: { failedKeys: ReadonlySet<string>; lastError: unknown }) => {
    asked.push(failure ? { failed: [...failure.failedKeys], error: String((failure.lastError as Error)?.message ?? failure.lastError) } : {});
    return choices.shift();
  };
  return { router, asked };
}

async function turn(f: Framework, agent: unknown) {
  const runner = new f.InMemoryRunner({ agent, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: any[] = [];
  let thrown: string | undefined;
  try {
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "hi" }] } })) events.push(event);
  } catch (error) {
    thrown = (error as Error).message;
  }
  const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
  const brief = (event: any) => `${event.author}: ${event.errorCode ? `error ${event.errorCode}` : event.content?.parts?.map((part: any) => part.text).join("")}`;
  return { yielded: events.map(brief), stored: stored.events.map(brief), thrown };
}

const both = async <T,>(program: (f: Framework) => Promise<T>): Promise<{ adk: T; toolsmith: T }> => ({ adk: await program(adk), toolsmith: await program(toolsmith) });

describe("RoutedLlm", () => {
  it("fails over to the model the router picks next when the first fails before answering, asking the router with the failure", async () => {
    const results = await both(async (f) => {
      const flaky = scripted(f, "flaky-model", [new Error("503 from flaky")]);
      const steady = scripted(f, "steady-model", [text("Hello from steady.")]);
      const { router, asked } = recordingRouter(["flaky-model", "steady-model"]);
      const agent = new f.LlmAgent({ name: "assistant", model: new f.RoutedLlm({ models: [flaky.model, steady.model], router }), instruction: "Help." });
      return { ...(await turn(f, agent)), asked, calls: [flaky.counter.calls, steady.counter.calls], name: new f.RoutedLlm({ models: [flaky.model, steady.model], router }).model };
    });
    expect(results.adk).toEqual({
      yielded: ["assistant: Hello from steady."],
      stored: ["user: hi", "assistant: Hello from steady."],
      thrown: undefined,
      asked: [{}, { failed: ["flaky-model"], error: "503 from flaky" }],
      calls: [1, 1],
      name: "RoutedLlm[flaky-model (flaky-model), steady-model (steady-model)]",
    });
    expect(results.toolsmith).toEqual(results.adk);
  });

  it("gives up when the router returns nothing or a model it tried: the model's failure ends the turn as an error event on both", async () => {
    for (const next of [undefined, "flaky-model"]) {
      const results = await both(async (f) => {
        const flaky = scripted(f, "flaky-model", [new Error("503 from flaky")]);
        const { router, asked } = recordingRouter(["flaky-model", next]);
        const agent = new f.LlmAgent({ name: "assistant", model: new f.RoutedLlm({ models: { flaky: flaky.model, "flaky-model": flaky.model }, router }), instruction: "Help." });
        return { ...(await turn(f, agent)), asked };
      });
      expect(results.adk).toMatchObject({ asked: [{}, { failed: ["flaky-model"], error: "503 from flaky" }], thrown: undefined, yielded: ["assistant: error UNKNOWN_ERROR"] });
      expect(results.toolsmith).toMatchObject({ asked: results.adk.asked, thrown: undefined, yielded: ["assistant: error MODEL_ERROR"] });
    }
  });
});

describe("RoutedAgent", () => {
  /** Two agents behind a router: the first fails (its model, or by throwing), the second answers. */
  function failingFirst(f: Framework, choices: Array<string | undefined>, how: "model" | "throw") {
    const BaseAgentClass: new (options: { name: string }) => object = f.BaseAgent;
    class Throwing extends BaseAgentClass {
      async *runAsyncImpl(): AsyncGenerator<never, void, undefined> {
        throw new Error("rate limited");
      }
    }
    const fast = how === "model" ? new f.LlmAgent({ name: "fast_agent", model: scripted(f, "fast-model", [new Error("rate limited")]).model, instruction: "Be quick." }) : new Throwing({ name: "fast_agent" });
    const careful = new f.LlmAgent({ name: "careful_agent", model: scripted(f, "careful-model", [text("A careful answer.")]).model, instruction: "Be careful." });
    const { router, asked } = recordingRouter(choices);
    return { routed: new f.RoutedAgent({ name: "support", agents: [fast, careful], router }), asked };
  }

  it("hands the run to another agent when the one picked throws before producing anything, asking the router with the error", async () => {
    const results = await both(async (f) => {
      const { routed, asked } = failingFirst(f, ["fast_agent", "careful_agent"], "throw");
      return { ...(await turn(f, routed)), asked, subAgents: routed.subAgents.map((agent: { name: string }) => agent.name), routed: f.isRoutedAgent(routed) };
    });
    expect(results.adk).toEqual({
      yielded: ["careful_agent: A careful answer."],
      stored: ["user: hi", "careful_agent: A careful answer."],
      thrown: undefined,
      asked: [{}, { failed: ["fast_agent"], error: "rate limited" }],
      subAgents: ["fast_agent", "careful_agent"],
      routed: true,
    });
    expect(results.toolsmith).toEqual(results.adk);
  });

  it("when the picked agent's model fails: ADK ends with its error event and asks the router nothing more; toolsmith fails over, storing only the answer", async () => {
    const results = await both(async (f) => {
      const { routed, asked } = failingFirst(f, ["fast_agent", "careful_agent"], "model");
      return { ...(await turn(f, routed)), asked: asked.map((entry) => entry.failed ?? []) };
    });
    expect(results.adk).toEqual({ yielded: ["fast_agent: error UNKNOWN_ERROR"], stored: ["user: hi", "fast_agent: error UNKNOWN_ERROR"], thrown: undefined, asked: [[]] });
    expect(results.toolsmith).toEqual({ yielded: ["careful_agent: A careful answer."], stored: ["user: hi", "careful_agent: A careful answer."], thrown: undefined, asked: [[], ["fast_agent"]] });
  });

  it("tells the router of a failed model as a ToolsmithError with the error event's code and message", async () => {
    let lastError: unknown;
    const fast = new toolsmith.LlmAgent({ name: "fast_agent", model: scripted(toolsmith, "fast-model", [new Error("rate limited")]).model, instruction: "Be quick." });
    const careful = new toolsmith.LlmAgent({ name: "careful_agent", model: scripted(toolsmith, "careful-model", [text("ok")]).model, instruction: "Be careful." });
    const routed = new toolsmith.RoutedAgent({ name: "support", agents: [fast, careful], router: (_agents, _context, failure) => ((lastError = failure?.lastError), failure ? "careful_agent" : "fast_agent") });
    await turn(toolsmith, routed);
    expect(isToolsmithError(lastError) && lastError.code).toBe("MODEL_ERROR");
    expect((lastError as Error).message).toMatch(/rate limited/);
  });

  it("gives up when the router picks an agent it tried: ADK's run throws the error, toolsmith's ends with a RUN_FAILED error event; a failed model's event ends it on toolsmith", async () => {
    const thrown = await both(async (f) => turn(f, failingFirst(f, ["fast_agent", "fast_agent"], "throw").routed));
    expect(thrown.adk).toMatchObject({ thrown: "rate limited", yielded: [] });
    expect(thrown.toolsmith).toMatchObject({ thrown: undefined, yielded: ["support: error RUN_FAILED"] });
    const failedModel = await turn(toolsmith, failingFirst(toolsmith, ["fast_agent", "fast_agent"], "model").routed);
    expect(failedModel).toMatchObject({ thrown: undefined, yielded: ["fast_agent: error MODEL_ERROR"], stored: ["user: hi", "fast_agent: error MODEL_ERROR"] });
  });

  it("is cloned with its routing targets, which route as before", async () => {
    const results = await both(async (f) => {
      const { routed } = failingFirst(f, ["careful_agent"], "model");
      const copy = routed.clone({ name: "support_copy" });
      return { name: copy.name, subAgents: copy.subAgents.map((agent: { name: string; parentAgent?: { name: string } }) => `${agent.name} < ${agent.parentAgent?.name}`), sameTargets: copy.subAgents[0] === routed.subAgents[0] };
    });
    expect(results.adk).toEqual({ name: "support_copy", subAgents: ["fast_agent < support_copy", "careful_agent < support_copy"], sameTargets: false });
    expect(results.toolsmith).toEqual(results.adk);
  });
});

describe("isRoutableLlmAgent and requireAgent", () => {
  it("say the same of the same trees", async () => {
    const results = await both(async (f) => {
      const leaf = new f.LlmAgent({ name: "leaf", instruction: "x" });
      const sticky = new f.LlmAgent({ name: "sticky", instruction: "x", disallowTransferToParent: true });
      const root = new f.LlmAgent({ name: "root", instruction: "x", subAgents: [leaf, sticky] });
      const inSequence = new f.LlmAgent({ name: "in_sequence", instruction: "x" });
      new f.SequentialAgent({ name: "sequence", subAgents: [inSequence] });
      const lonelyStickyRoot = new f.LlmAgent({ name: "lonely", instruction: "x", disallowTransferToParent: true });
      const context = new f.InvocationContext({ agent: root, session: { id: "s", appName: "a", userId: "u", state: {}, events: [], lastUpdateTime: 0 }, sessionService: new f.InMemorySessionService(), invocationId: "i" });
      return { routable: [root, leaf, sticky, inSequence, lonelyStickyRoot].map((agent) => f.isRoutableLlmAgent(agent)), required: f.requireAgent(context).name };
    });
    expect(results.adk).toEqual({ routable: [true, true, false, false, false], required: "root" });
    expect(results.toolsmith).toEqual(results.adk);
  });
});

describe("which agent the next message goes to", () => {
  /** The author of the answer to a new message in a session whose earlier events were written by `seedAuthors`. */
  async function answeredBy(framework: "adk" | "toolsmith", seedAuthors: readonly string[], rootDisallowsTransferToParent: boolean) {
    const record = await runOn(framework, [text("answered")], async (f, model) => {
      const BaseAgentClass: new (options: { name: string }) => object = f.BaseAgent;
      class Remote extends BaseAgentClass {
        async *runAsyncImpl() {}
      }
      const child = new f.LlmAgent({ name: "child_llm", model, instruction: "x" });
      const root = new f.LlmAgent({ name: "root", model, instruction: "x", subAgents: [child, new Remote({ name: "remote" })], disallowTransferToParent: rootDisallowsTransferToParent });
      const runner = new f.InMemoryRunner({ agent: root, appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      for (const author of seedAuthors) {
        await runner.sessionService.appendEvent({ session, event: f.createEvent({ author, invocationId: "seed", content: { role: author === "user" ? "user" : "model", parts: [{ text: `from ${author}` }] } }) });
      }
      const events: unknown[] = [];
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "next" }] } })) events.push(event);
      return { runner, events };
    });
    return record.events.map((event) => event.author).join(",");
  }

  it("is the latest agent the conversation may stay with, looking back past agents it may not and agents no longer in the tree; the root when its own flag forbids it", async () => {
    const cases: Array<[readonly string[], boolean]> = [
      [["user", "child_llm"], false],
      [["user", "child_llm", "user", "remote"], false],
      [["user", "child_llm", "stranger"], false],
      [["user", "stranger"], false],
      [["user", "child_llm"], true],
      [["user", "root", "user", "remote"], false],
    ];
    const adkAnswers: string[] = [];
    const ours: string[] = [];
    for (const [seed, flag] of cases) {
      adkAnswers.push(await answeredBy("adk", seed, flag));
      ours.push(await answeredBy("toolsmith", seed, flag));
    }
    expect(adkAnswers).toEqual(["child_llm", "child_llm", "child_llm", "root", "root", "root"]);
    expect(ours).toEqual(adkAnswers);
  });
});

describe("ADK's runner helpers: determineAgentForResumption and the function-call lookups", () => {
  it("find the same events and agents on the same histories", async () => {
    const results = await both(async (f) => {
      const child = new f.LlmAgent({ name: "child_llm", instruction: "x" });
      const BaseAgentClass: new (options: { name: string }) => object = f.BaseAgent;
      class Remote extends BaseAgentClass {
        async *runAsyncImpl() {}
      }
      const remote = new Remote({ name: "remote" });
      const root = new f.LlmAgent({ name: "root", instruction: "x", subAgents: [child, remote] });
      const event = (author: string, parts: unknown[]) => f.createEvent({ author, invocationId: "i", content: { role: author === "user" ? "user" : "model", parts } });
      const histories = {
        answered: [event("user", [{ text: "hi" }]), event("remote", [{ functionCall: { id: "c1", name: "ask", args: {} } }]), event("child_llm", [{ text: "meanwhile" }]), event("user", [{ functionResponse: { id: "c1", name: "ask", response: { ok: true } } }])],
        unanswered: [event("user", [{ text: "hi" }]), event("child_llm", [{ functionCall: { id: "c2", name: "ask", args: {} } }])],
        empty: [],
      };
      const indexOf = (events: unknown[], found: unknown) => (found === undefined ? "undefined" : found === null ? "null" : events.indexOf(found));
      const out: Record<string, unknown> = {};
      for (const [name, events] of Object.entries(histories)) {
        out[name] = {
          byId: indexOf(events, f.findEventByFunctionCallId(events, "c1")),
          byIdBefore1: indexOf(events, f.findEventByFunctionCallId(events, "c1", Math.min(1, events.length))),
          matching: indexOf(events, f.findMatchingFunctionCall(events)),
          lastResponse: indexOf(events, f.findEventByLastFunctionResponseId(events)),
          agent: f.determineAgentForResumption({ events }, root).name,
          resumable: f.determineAgentForResumption({ events }, root, { isResumable: true }).name,
        };
      }
      return out;
    });
    expect(results.adk).toEqual({
      answered: { byId: 1, byIdBefore1: "undefined", matching: 1, lastResponse: 1, agent: "child_llm", resumable: "remote" },
      unanswered: { byId: "undefined", byIdBefore1: "undefined", matching: "undefined", lastResponse: "null", agent: "child_llm", resumable: "child_llm" },
      empty: { byId: "undefined", byIdBefore1: "undefined", matching: "undefined", lastResponse: "null", agent: "root", resumable: "root" },
    });
    expect(results.toolsmith).toEqual(results.adk);
  });
});

import { describe, expect, it } from "vitest";
import {
  BasePlugin,
  FunctionTool,
  getAskUserConfirmationFunctionCalls,
  getText,
  InMemoryRunner,
  LlmAgent,
  LoggingPlugin,
  PluginManager,
  PolicyOutcome,
  REQUEST_CONFIRMATION,
  SecurityPlugin,
  type Content,
  type Event,
  type LlmRequest,
} from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

async function start(agent: LlmAgent, plugins: BasePlugin[]) {
  const runner = new InMemoryRunner({ agent, appName: "app", plugins });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const run = (newMessage: Content) => collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage }));
  const stored = async () => (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!;
  return { runner, run, stored };
}

class Answering extends BasePlugin {
  constructor(readonly answers: { model?: string; run?: string; user?: string; event?: string }) {
    super("answering");
  }
  override async onUserMessageCallback() {
    return this.answers.user ? userMessage(this.answers.user) : undefined;
  }
  override async beforeRunCallback() {
    return this.answers.run ? { role: "model", parts: [{ text: this.answers.run }] } : undefined;
  }
  override async beforeModelCallback() {
    return this.answers.model ? textResponse(this.answers.model) : undefined;
  }
  override async onEventCallback({ event }: { event: Event }) {
    return this.answers.event ? { ...event, content: { role: "model", parts: [{ text: this.answers.event }] } } : undefined;
  }
}

describe("plugins on the Runner", () => {
  it("answer for the model before the agent's callbacks, which then do not run", async () => {
    const model = new ScriptedModel([]);
    const agentCallbacks: string[] = [];
    const agent = new LlmAgent({ name: "a", model, beforeModelCallback: () => void agentCallbacks.push("agent") });
    const { run } = await start(agent, [new Answering({ model: "From the plugin." })]);
    const events = await run(userMessage("hi"));
    expect(getText(events.at(-1)!.content)).toBe("From the plugin.");
    expect(agentCallbacks).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  it("replace the user's message before it is stored, and end the run early with a plugin's answer authored 'model'", async () => {
    const model = new ScriptedModel([]);
    const { run, stored } = await start(new LlmAgent({ name: "a", model }), [new Answering({ user: "rewritten", run: "Closed today." })]);
    const events = await run(userMessage("original"));
    expect(events.map((event) => [event.author, getText(event.content)])).toEqual([["model", "Closed today."]]);
    expect((await stored()).events.map((event) => getText(event.content))).toEqual(["rewritten", "Closed today."]);
    expect(model.requests).toHaveLength(0);
  });

  it("replace an event's content before it is stored, keeping its id and author", async () => {
    const { run, stored } = await start(new LlmAgent({ name: "a", model: new ScriptedModel([textResponse("secret 1234")]) }), [new Answering({ event: "[redacted]" })]);
    const events = await run(userMessage("hi"));
    const kept = (await stored()).events.at(-1)!;
    expect(getText(events.at(-1)!.content)).toBe("[redacted]");
    expect(getText(kept.content)).toBe("[redacted]");
    expect(kept.author).toBe("a");
    expect(kept.id).toBe(events.at(-1)!.id);
  });

  it("end the run with a PLUGIN_FAILED error event naming the plugin and hook when a plugin throws", async () => {
    class Broken extends BasePlugin {
      constructor() {
        super("broken");
      }
      override async beforeToolCallback(): Promise<undefined> {
        throw new Error("boom");
      }
    }
    const tool = new FunctionTool({ name: "t", description: "T.", execute: () => ({ ok: true }) });
    const { run, stored } = await start(new LlmAgent({ name: "a", model: new ScriptedModel([functionCallsResponse({ name: "t", args: {} })]), tools: [tool] }), [new Broken()]);
    const events = await run(userMessage("go"));
    expect(events.at(-1)).toMatchObject({ errorCode: "PLUGIN_FAILED", errorMessage: expect.stringContaining('Plugin "broken" failed in beforeToolCallback: boom') });
    expect((await stored()).events.at(-1)!.errorCode).toBe("PLUGIN_FAILED");
  });

  it("refuse, when the runner is made, two plugins of one name", () => {
    expect(() => new PluginManager([new LoggingPlugin("same"), new LoggingPlugin("same")])).toThrow(expect.objectContaining({ code: "INVALID_PLUGIN" }));
    expect(new PluginManager([new LoggingPlugin()]).getPlugin("logging_plugin")).toBeInstanceOf(LoggingPlugin);
  });
});

describe("SecurityPlugin", () => {
  const refundTool = (ran: number[]) => new FunctionTool({ name: "refund", description: "Refunds.", execute: ({ amount }: { amount?: number }) => (ran.push(amount ?? 0), { refunded: amount }) });
  const policyEngine = { evaluate: async ({ toolArgs }: { toolArgs: Record<string, unknown> }) => ((toolArgs.amount as number) > 100 ? { outcome: PolicyOutcome.CONFIRM, reason: "large refund" } : { outcome: PolicyOutcome.ALLOW }) };

  it("pauses a call the policy wants confirmed, and runs it once the person approves", async () => {
    const ran: number[] = [];
    const model = new ScriptedModel([functionCallsResponse({ name: "refund", args: { amount: 500 } }), (request: LlmRequest) => textResponse(`Refund: ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)}`)]);
    const { run } = await start(new LlmAgent({ name: "shop", model, tools: [refundTool(ran)] }), [new SecurityPlugin({ policyEngine })]);
    const paused = await run(userMessage("refund 500"));
    const [request] = getAskUserConfirmationFunctionCalls(paused.at(-1)!);
    expect(request!.name).toBe(REQUEST_CONFIRMATION);
    expect((request!.args as { toolConfirmation: { hint: string } }).toolConfirmation.hint).toBe("Policy engine requires confirmation calling tool: refund. Reason: large refund");
    expect(ran).toEqual([]);
    const resumed = await run({ role: "user", parts: [{ functionResponse: { id: request!.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] });
    expect(ran).toEqual([500]);
    expect(getText(resumed.at(-1)!.content)).toBe('Refund: {"refunded":500}');
  });

  it("answers the model that the person declined, without running the call", async () => {
    const ran: number[] = [];
    const model = new ScriptedModel([functionCallsResponse({ name: "refund", args: { amount: 500 } }), textResponse("Not refunded.")]);
    const { run } = await start(new LlmAgent({ name: "shop", model, tools: [refundTool(ran)] }), [new SecurityPlugin({ policyEngine })]);
    const [request] = getAskUserConfirmationFunctionCalls((await run(userMessage("refund 500"))).at(-1)!);
    await run({ role: "user", parts: [{ functionResponse: { id: request!.id, name: REQUEST_CONFIRMATION, response: { confirmed: false } } }] });
    expect(ran).toEqual([]);
    expect(JSON.stringify(model.requests.at(-1)!.contents.at(-1))).toContain("The user declined the call");
  });

  it("lets allowed calls run at once; the default engine allows everything", async () => {
    const ran: number[] = [];
    const model = new ScriptedModel([functionCallsResponse({ name: "refund", args: { amount: 20 } }), textResponse("Done."), functionCallsResponse({ name: "refund", args: { amount: 900 } }), textResponse("Done.")]);
    const first = await start(new LlmAgent({ name: "shop", model, tools: [refundTool(ran)] }), [new SecurityPlugin({ policyEngine })]);
    await first.run(userMessage("refund 20"));
    const second = await start(new LlmAgent({ name: "shop2", model, tools: [refundTool(ran)] }), [new SecurityPlugin()]);
    await second.run(userMessage("refund 900"));
    expect(ran).toEqual([20, 900]);
  });
});

describe("LoggingPlugin", () => {
  it("writes each hook's lines, prefixed with its name, to the log it is given", async () => {
    const lines: string[] = [];
    const tool = new FunctionTool({ name: "now", description: "Time.", execute: () => ({ now: 1 }) });
    const { run } = await start(new LlmAgent({ name: "clock", model: new ScriptedModel([functionCallsResponse({ name: "now", args: {} }), textResponse("It is 1.")]), tools: [tool] }), [new LoggingPlugin("log", { log: (line) => lines.push(line) })]);
    await run(userMessage("time?"));
    const titles = lines.filter((line) => !line.startsWith("[log]    "));
    expect(titles).toEqual([
      "[log] 🚀 USER MESSAGE RECEIVED",
      "[log] 🏃 INVOCATION STARTING",
      "[log] 🤖 AGENT STARTING",
      "[log] 🧠 LLM REQUEST",
      "[log] 🧠 LLM RESPONSE",
      "[log] 📢 EVENT YIELDED",
      "[log] 🔧 TOOL STARTING",
      "[log] 🔧 TOOL COMPLETED",
      "[log] 📢 EVENT YIELDED",
      "[log] 🧠 LLM REQUEST",
      "[log] 🧠 LLM RESPONSE",
      "[log] 📢 EVENT YIELDED",
      "[log] 🤖 AGENT COMPLETED",
      "[log] ✅ INVOCATION COMPLETED",
    ]);
    expect(lines).toContain("[log]    Tool Name: now");
    expect(lines).toContain("[log]    User Content: text: 'time?'");
  });
});

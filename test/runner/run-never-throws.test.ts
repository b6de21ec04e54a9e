/**
 * `runAsync` never throws for what happens inside a run (issue 15): a fault injected at each stage ends the
 * run with an error event carrying a typed code and a message saying what to do, the iterator completes, and
 * what the session stored before stays intact. Only a mistake in how the run was started throws.
 */
import { describe, expect, it } from "vitest";
import {
  BasePlugin,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  SessionNotFoundError,
  type AgentLike,
  type AppendEventRequest,
  type Event,
  type JsonSchema,
} from "../../src/index.js";
import { MCPToolset } from "../../src/mcp/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

async function runOnce(agent: AgentLike, options: { sessionService?: InMemorySessionService; plugins?: BasePlugin[] } = {}) {
  const sessionService = options.sessionService ?? new InMemorySessionService();
  const runner = new Runner({ appName: "app", agent, sessionService, plugins: options.plugins });
  const session = await sessionService.createSession({ appName: "app", userId: "u", state: { kept: "yes" } });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
  const stored = await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
  return { events, stored: stored! };
}

const tool = new FunctionTool({ name: "noop", description: "Does nothing.", execute: () => ({ done: true }) });
const callsNoop = () => new ScriptedModel([functionCallsResponse({ name: "noop" }), textResponse("finished")]);

describe("runAsync ends a failing run with a typed error event instead of throwing", () => {
  const stages: Array<[string, () => { agent: AgentLike; plugins?: BasePlugin[] }, string, RegExp]> = [
    ["a toolset fails to list its tools", () => ({ agent: new LlmAgent({ name: "a", model: callsNoop(), tools: [{ getTools: () => Promise.reject(new Error("listing failed")), close: async () => undefined }] }) }), "TOOLSET_FAILED", /could not list its tools: listing failed\. Check that its server is running/],
    ["an MCP server over HTTP is down", () => ({ agent: new LlmAgent({ name: "a", model: callsNoop(), tools: [new MCPToolset({ connection: { type: "http", url: "http://127.0.0.1:9/mcp" } })] }) }), "TOOLSET_FAILED", /\(MCPToolset\) could not list its tools: .*Check that its server is running/],
    ["a before-model callback throws", () => ({ agent: new LlmAgent({ name: "a", model: callsNoop(), beforeModelCallback: () => { throw new Error("boom"); } }) }), "CALLBACK_FAILED", /beforeModelCallback threw: boom\. The run stopped there; fix the callback/],
    ["an after-tool callback throws", () => ({ agent: new LlmAgent({ name: "a", model: callsNoop(), tools: [tool], afterToolCallback: () => { throw new Error("boom"); } }) }), "CALLBACK_FAILED", /afterToolCallback threw: boom/],
    ["a before-agent callback throws", () => ({ agent: new LlmAgent({ name: "a", model: callsNoop(), beforeAgentCallback: () => { throw new Error("boom"); } }) }), "CALLBACK_FAILED", /beforeAgentCallback threw: boom/],
    ["an instruction provider throws", () => ({ agent: new LlmAgent({ name: "a", model: callsNoop(), instruction: () => { throw new Error("no template"); } }) }), "RUN_FAILED", /The run failed: Error: no template\. This came from the agent's own code/],
    ["the instruction names a state key that is not set", () => ({ agent: new LlmAgent({ name: "a", model: callsNoop(), instruction: "Plan: {plan}" }) }), "MISSING_STATE_KEY", /write \{plan\?\} to make it optional/],
    ["a plugin throws", () => ({ agent: new LlmAgent({ name: "a", model: callsNoop() }), plugins: [new (class extends BasePlugin { override async beforeModelCallback(): Promise<undefined> { throw new Error("plugin boom"); } })("broken")] }), "PLUGIN_FAILED", /broken/],
  ];

  it.each(stages)("when %s", async (_stage, make, code, message) => {
    const { agent, plugins } = make();
    const { events, stored } = await runOnce(agent, { plugins });
    const last = events.at(-1)!;
    expect(last).toMatchObject({ errorCode: code, errorMessage: expect.stringMatching(message) });
    // The error event is stored after everything before it, and the session's data is intact.
    expect(stored.events.at(-1)).toMatchObject({ id: last.id, errorCode: code });
    expect(stored.events[0]).toMatchObject({ author: "user", content: userMessage("go") });
    expect(stored.state.kept).toBe("yes");
  });

  it("answers a tool whose schema cannot be compiled with an error result, and the run goes on", async () => {
    const broken = new FunctionTool({ name: "broken", description: "x", parameters: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } as JsonSchema, execute: () => 1 });
    const model = new ScriptedModel([functionCallsResponse({ name: "broken", args: { a: 1 } }), textResponse("I will do without it.")]);
    const { events } = await runOnce(new LlmAgent({ name: "a", model, tools: [broken] }));
    expect(events[1]!.content!.parts![0]!.functionResponse!.response).toMatchObject({ status: "error", code: "INVALID_TOOL_SCHEMA" });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("I will do without it.");
  });

  it("ends with SESSION_STORE_FAILED, unstored, when the store refuses an append; what it stored before stays", async () => {
    class FailingStore extends InMemorySessionService {
      override async appendEvent(request: AppendEventRequest): Promise<Event> {
        if (request.event.author !== "user") throw new Error("disk full");
        return super.appendEvent(request);
      }
    }
    const { events, stored } = await runOnce(new LlmAgent({ name: "a", model: callsNoop(), tools: [tool] }), { sessionService: new FailingStore() });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ errorCode: "SESSION_STORE_FAILED", errorMessage: expect.stringMatching(/could not store an event: disk full\. Nothing after it was stored/) });
    expect(stored.events.map((event) => event.author)).toEqual(["user"]);
  });

  it("still throws for a mistake in how the run was started: an unknown session", async () => {
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "a", model: callsNoop() }) });
    await expect(collect(runner.runAsync({ userId: "u", sessionId: "nope", newMessage: userMessage("go") }))).rejects.toBeInstanceOf(SessionNotFoundError);
  });
});

/** runSingleToolCall on its own: one tool call by hand, through the loop's own path, on a real session. */
import { describe, expect, it } from "vitest";
import { InMemoryArtifactService } from "../../src/artifacts/in-memory-artifact-service.js";
import { ConfigurationError } from "../../src/errors/toolsmith-error.js";
import { createEvent } from "../../src/events/event.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { runSingleToolCall, type RunSingleToolCallRequest } from "../../src/llm-agent/run-single-tool-call.js";
import { pausedResponse } from "../../src/pause/paused-call.js";
import { InMemorySessionService } from "../../src/sessions/in-memory-session-service.js";
import { AgentTool } from "../../src/tools/agent-tool.js";
import type { Toolset } from "../../src/tools/tool.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";
import { tool } from "./fixtures.js";

async function setUp(agent: LlmAgent, state?: Record<string, unknown>) {
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: "app", userId: "u", state });
  return { sessionService, session, artifactService: new InMemoryArtifactService() };
}

const call = async (agent: LlmAgent, toolName: string, args: Record<string, unknown> = {}, extra: Partial<RunSingleToolCallRequest> = {}) => {
  const services = await setUp(agent);
  const result = await runSingleToolCall({ agent, toolName, args, ...services, ...extra });
  return { ...services, result };
};

describe("runSingleToolCall", () => {
  it("stores the call and its response as two events of the agent, and returns the response with the state it wrote", async () => {
    const add = tool("add_note", (args, context) => {
      context.state.set("last_note", args.text);
      return { saved: args.text };
    });
    const agent = new LlmAgent({ name: "notes", tools: [add] });
    const { result, session, sessionService } = await call(agent, "add_note", { text: "buy milk" });
    expect(result.response).toEqual({ saved: "buy milk" });
    expect(result.stateDelta).toEqual({ last_note: "buy milk" });
    expect(result.events).toHaveLength(2);
    const [callEvent, responseEvent] = result.events;
    expect(callEvent!.author).toBe("notes");
    expect(callEvent!.content!.parts![0]!.functionCall).toMatchObject({ name: "add_note", args: { text: "buy milk" } });
    const callId = callEvent!.content!.parts![0]!.functionCall!.id!;
    expect(callId).toMatch(/^call-/);
    expect(responseEvent!.content!.parts![0]!.functionResponse).toEqual({ id: callId, name: "add_note", response: { saved: "buy milk" } });
    expect(callEvent!.invocationId).toBe(responseEvent!.invocationId);
    const stored = await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.events.map((event) => event.id)).toEqual(result.events.map((event) => event.id));
    expect(stored!.state.last_note).toBe("buy milk");
    expect(session.state.last_note).toBe("buy milk");
  });

  it("returns the versions of the artifacts the tool saved", async () => {
    const save = tool("save_report", async (_args, context) => ({ version: await context.saveArtifact("report.md", { text: "# Report" }) }));
    const agent = new LlmAgent({ name: "writer", tools: [save] });
    const { result, artifactService, session } = await call(agent, "save_report");
    expect(result.artifactDelta).toEqual({ "report.md": 0 });
    expect(await artifactService.loadArtifact({ appName: "app", userId: "u", sessionId: session.id, filename: "report.md" })).toEqual({ text: "# Report" });
  });

  it("runs a tool that needs confirmation as confirmed, since the person calling is the one who would be asked", async () => {
    const decisions: unknown[] = [];
    const refund = tool("refund", (_args, context) => {
      decisions.push(context.toolConfirmation);
      return { refunded: true };
    }, { requireConfirmation: true });
    const { result } = await call(new LlmAgent({ name: "shop", tools: [refund] }), "refund", { order: 7 });
    expect(result.response).toEqual({ refunded: true });
    expect(decisions).toEqual([{ confirmed: true, hint: "Called by hand." }]);
    expect(result.events).toHaveLength(2);
  });

  it("checks the arguments as for the model, answering bad ones with an error result instead of running", async () => {
    let ran = false;
    const strict = tool("strict", () => void (ran = true));
    const typed = new LlmAgent({
      name: "typed",
      tools: [
        {
          name: "square",
          description: "Squares.",
          declaration: () => ({ name: "square", description: "Squares.", parameters: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } }),
          run: async () => {
            ran = true;
            return {};
          },
        },
        strict,
      ],
    });
    const { result } = await call(typed, "square", { x: "nine" });
    expect(ran).toBe(false);
    expect(result.response).toMatchObject({ status: "error", error: expect.stringContaining('Invalid arguments for tool "square"') });
  });

  it("answers a tool that throws with the error result the model would read, and keeps none of its state", async () => {
    const broken = tool("broken", (_args, context) => {
      context.state.set("partial", true);
      throw new Error("no network");
    });
    const { result } = await call(new LlmAgent({ name: "a", tools: [broken] }), "broken");
    expect(result.response).toEqual({ status: "error", error: 'Tool "broken" failed: no network. Check the arguments, or try a different approach.' });
    expect(result.stateDelta).toEqual({});
  });

  it("refuses a tool the agent does not have, listing the ones it has, before storing anything", async () => {
    const agent = new LlmAgent({ name: "helper", tools: [tool("one", () => 1), tool("two", () => 2)] });
    const services = await setUp(agent);
    const error = await runSingleToolCall({ agent, toolName: "three", args: {}, ...services }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ code: "UNKNOWN_TOOL", message: 'Agent "helper" has no tool "three". Its tools: one, two.' });
    expect(services.session.events).toEqual([]);
    await expect(runSingleToolCall({ agent: new LlmAgent({ name: "bare" }), toolName: "x", args: {}, ...services })).rejects.toThrow("Its tools: none.");
  });

  it("finds tools that the agent's toolsets give for this session's state", async () => {
    const toolset: Toolset = {
      getTools: async (context) => (context.state.get("plan") === "pro" ? [tool("export_pdf", () => ({ pdf: true }))] : []),
      close: async () => {},
    };
    const agent = new LlmAgent({ name: "docs", tools: [toolset] });
    const pro = await setUp(agent, { plan: "pro" });
    expect((await runSingleToolCall({ agent, toolName: "export_pdf", args: {}, ...pro })).response).toEqual({ pdf: true });
    const free = await setUp(agent, { plan: "free" });
    await expect(runSingleToolCall({ agent, toolName: "export_pdf", args: {}, ...free })).rejects.toMatchObject({ code: "UNKNOWN_TOOL" });
  });

  it("runs an agent tool by hand: its agent may call its model, its events are stored between the call and the response, and its answer is returned", async () => {
    const researcher = new LlmAgent({ name: "researcher", description: "Finds facts.", model: new ScriptedModel([textResponse("Water boils at 100 °C.")]) });
    const writer = new LlmAgent({ name: "writer", tools: [new AgentTool({ agent: researcher })] });
    const { result, session } = await call(writer, "researcher", { request: "When does water boil?" });
    expect(result.response).toEqual({ result: "Water boils at 100 °C." });
    expect(result.events.map((event) => event.author)).toEqual(["writer", "user", "researcher", "writer"]);
    expect(result.events[2]!.branch).toMatch(/^writer\.researcher@/);
    expect(session.events).toHaveLength(4);
  });

  it("stores no partial event a tool streams, such as its progress", async () => {
    const slow = tool("slow", async (_args, context) => {
      await context.reportProgress({ progress: 1, total: 2 });
      await context.emitEvent(createEvent({ invocationId: context.invocationId, author: "slow", content: { role: "model", parts: [{ text: "half way" }] } }));
      return { done: true };
    });
    const { result } = await call(new LlmAgent({ name: "a", tools: [slow] }), "slow");
    expect(result.events.map((event) => event.content?.parts?.[0]?.text ?? event.content?.parts?.[0]?.functionCall?.name ?? event.content?.parts?.[0]?.functionResponse?.name)).toEqual([
      "slow",
      "half way",
      "slow",
    ]);
    expect(result.events.some((event) => event.partial)).toBe(false);
  });

  it("returns the paused response and stores the request when the tool asks the client for a credential", async () => {
    const needsKey = tool("needs_key", (_args, context) => {
      context.requestCredential({ authScheme: { type: "apiKey", name: "X-Key", in: "header" } });
      return {};
    });
    const { result } = await call(new LlmAgent({ name: "a", tools: [needsKey] }), "needs_key");
    expect(result.response).toEqual(pausedResponse("credential"));
    expect(result.events.at(-1)!.content!.parts![0]!.functionCall!.name).toBe("adk_request_credential");
  });

  it("answers with a cancellation error when the call is aborted while it runs, storing only the call", async () => {
    const controller = new AbortController();
    const hanging = tool("hanging", () => {
      setTimeout(() => controller.abort(), 5);
      return new Promise(() => {});
    });
    const { result } = await call(new LlmAgent({ name: "a", tools: [hanging] }), "hanging", {}, { abortSignal: controller.signal });
    expect(result.response).toEqual({ status: "error", error: "The call was cancelled before it finished." });
    expect(result.events).toHaveLength(1);
    expect(result.stateDelta).toEqual({});
  });

  it("never calls a model, even for an agent that has one", async () => {
    const model = new ScriptedModel([]);
    const { result } = await call(new LlmAgent({ name: "a", model, tools: [tool("ping", () => "pong")] }), "ping");
    expect(result.response).toEqual({ result: "pong" });
    expect(model.requests).toHaveLength(0);
  });
});

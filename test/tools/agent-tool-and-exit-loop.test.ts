/**
 * AgentTool and exitLoop called directly with a ToolContext: the agent's
 * branch and request, what of its events reaches the caller, and the pause and
 * skip-summarisation flags it leaves on the caller's call.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentTool, createEvent, exitLoop, ToolContext, type AgentLike, type Event, type InvocationContext } from "../../src/index.js";
import { createInvocation, createToolContext } from "../support/tool-context.js";

/** An agent that records the context it ran in and yields the given events. */
function scriptedAgent(name: string, events: (context: InvocationContext) => Event[], description = "") {
  const runs: InvocationContext[] = [];
  const agent: AgentLike = {
    name,
    description,
    subAgents: [],
    async *runAsync(context) {
      runs.push(context);
      for (const event of events(context)) yield event;
    },
  };
  return { agent, runs };
}

const say = (context: InvocationContext, author: string, text: string, extra: Partial<Event> = {}) =>
  createEvent({ invocationId: context.invocationId, author, branch: context.branch, content: { role: "model", parts: [{ text }] }, ...extra });

async function callerContext(options: { branch?: string; functionCallId?: string; previousEvents?: Event[] } = {}) {
  const invocation: InvocationContext = (await createInvocation()).clone({ branch: options.branch });
  if (options.previousEvents) invocation.session.events.push(...options.previousEvents);
  const emitted: Event[] = [];
  const context = new ToolContext({ invocation, functionCallId: options.functionCallId ?? "call-1", emitEvent: async (event) => void emitted.push(event) });
  return { invocation, context, emitted };
}

describe("AgentTool declaration and checks", () => {
  it("is named after the agent and described by it, or by a fallback naming it", () => {
    const described = new AgentTool({ agent: scriptedAgent("researcher", () => [], "Finds facts.").agent });
    expect(described.name).toBe("researcher");
    expect(described.description).toBe("Finds facts.");
    const bare = new AgentTool({ agent: scriptedAgent("helper", () => []).agent });
    expect(bare.description).toBe('Runs the agent "helper".');
    expect(bare.declaration().description).toBe('Runs the agent "helper".');
  });

  it("takes one required string, request, unless given other parameters", () => {
    const tool = new AgentTool({ agent: scriptedAgent("helper", () => []).agent });
    expect(tool.declaration().parameters).toMatchObject({ type: "object", properties: { request: { type: "string" } }, required: ["request"] });
    expect(tool.checkArguments({})).toEqual({ ok: false, issues: [{ field: "request", problem: "is required but missing" }] });
    expect(tool.checkArguments({ request: 5 })).toEqual({ ok: false, issues: [{ field: "request", problem: "must be string" }] });
    expect(tool.checkArguments({ request: "find x" })).toEqual({ ok: true, value: { request: "find x" } });
  });

  it("checks zod parameters with zod when given them", () => {
    const tool = new AgentTool({ agent: scriptedAgent("planner", () => []).agent, parameters: z.object({ goal: z.string(), steps: z.number().int().max(5) }) });
    expect(tool.declaration().parameters).toMatchObject({ properties: { goal: { type: "string" }, steps: { type: "integer" } } });
    const result = tool.checkArguments({ goal: "ship", steps: 9 });
    expect(result.ok ? [] : result.issues.map((issue) => issue.field)).toEqual(["steps"]);
  });

  it("asks for confirmation only as configured", async () => {
    const context = await createToolContext();
    const agent = scriptedAgent("mailer", () => []).agent;
    expect(await new AgentTool({ agent }).requiresConfirmation({ request: "x" }, context)).toBe(false);
    expect(await new AgentTool({ agent, requireConfirmation: true }).requiresConfirmation({ request: "x" }, context)).toBe(true);
    const rule = new AgentTool({ agent, requireConfirmation: (args) => String(args.request).includes("everyone") });
    expect(await rule.requiresConfirmation({ request: "mail everyone" }, context)).toBe(true);
    expect(await rule.requiresConfirmation({ request: "mail Ada" }, context)).toBe(false);
  });
});

describe("AgentTool runs", () => {
  it("runs the agent in a branch of its own with only the request, and returns its last text", async () => {
    const { agent, runs } = scriptedAgent("researcher", (context) => [say(context, "researcher", "Looking..."), say(context, "researcher", "Paris is the capital.")]);
    const { invocation, context, emitted } = await callerContext({ functionCallId: "call-9" });
    const result = await new AgentTool({ agent }).run({ request: "Capital of France?" }, context);
    expect(result).toBe("Paris is the capital.");
    expect(runs).toHaveLength(1);
    const child = runs[0]!;
    expect(child.branch).toBe("test_agent.researcher@call-9");
    expect(child.historyRoot).toBe("test_agent.researcher@call-9");
    expect(child.agent).toBe(agent);
    expect(child.userContent).toEqual({ role: "user", parts: [{ text: "Capital of France?" }] });
    expect(child.session).toBe(invocation.session);
    // The request is streamed first, as the user's turn in that branch, then the agent's events.
    expect(emitted.map((event) => [event.author, event.branch, event.content?.parts?.[0]?.text])).toEqual([
      ["user", "test_agent.researcher@call-9", "Capital of France?"],
      ["researcher", "test_agent.researcher@call-9", "Looking..."],
      ["researcher", "test_agent.researcher@call-9", "Paris is the capital."],
    ]);
  });

  it("nests the branch under the caller's branch and makes the call id safe for a branch name", async () => {
    const { agent, runs } = scriptedAgent("inner", () => []);
    const { context } = await callerContext({ branch: "root.outer@c1", functionCallId: "call.with/odd:chars" });
    expect(await new AgentTool({ agent }).run({ request: "go" }, context)).toBe("");
    expect(runs[0]!.branch).toBe("root.outer@c1.test_agent.inner@call_with_odd_chars");
  });

  it("sends arguments of other shapes to the agent as JSON", async () => {
    const { agent, runs } = scriptedAgent("planner", () => []);
    const { context } = await callerContext();
    await new AgentTool({ agent, parameters: { type: "object", properties: { request: { type: "string" }, depth: { type: "integer" } } } }).run({ request: "plan", depth: 2 }, context);
    expect(runs[0]!.userContent).toEqual({ role: "user", parts: [{ text: '{"request":"plan","depth":2}' }] });
  });

  it("does not repeat the request when the branch already has events (the agent resumes)", async () => {
    const { agent } = scriptedAgent("researcher", (context) => [say(context, "researcher", "Done.")]);
    const earlier = createEvent({ invocationId: "e-0", author: "user", branch: "test_agent.researcher@call-1", content: { role: "user", parts: [{ text: "Capital of France?" }] } });
    const { context, emitted } = await callerContext({ previousEvents: [earlier] });
    expect(await new AgentTool({ agent }).run({ request: "Capital of France?" }, context)).toBe("Done.");
    expect(emitted.map((event) => event.author)).toEqual(["researcher"]);
  });

  it("brings the agent's state and artifact changes into the caller's call, but not those of partial events", async () => {
    const { agent } = scriptedAgent("worker", (context) => [
      say(context, "worker", "chunk", { partial: true, actions: { stateDelta: { draft: true }, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} } }),
      say(context, "worker", "step 1", { actions: { stateDelta: { step: 1, "user:seen": true }, artifactDelta: { "notes.md": 0 }, requestedAuthConfigs: {}, requestedToolConfirmations: {} } }),
      say(context, "worker", "step 2", { actions: { stateDelta: { step: 2 }, artifactDelta: { "notes.md": 1 }, requestedAuthConfigs: {}, requestedToolConfirmations: {} } }),
    ]);
    const { context, emitted } = await callerContext();
    expect(await new AgentTool({ agent }).run({ request: "work" }, context)).toBe("step 2");
    expect(context.actions.stateDelta).toEqual({ step: 2, "user:seen": true });
    expect(context.actions.artifactDelta).toEqual({ "notes.md": 1 });
    // The partial chunk was still streamed to the caller.
    expect(emitted.some((event) => event.partial)).toBe(true);
  });

  it("keeps the last text as the answer when later events carry no text", async () => {
    const { agent } = scriptedAgent("worker", (context) => [
      say(context, "worker", "The answer."),
      createEvent({ invocationId: context.invocationId, author: "worker", branch: context.branch, content: { role: "user", parts: [{ functionResponse: { id: "x", name: "t", response: {} } }] } }),
    ]);
    const { context } = await callerContext();
    expect(await new AgentTool({ agent }).run({ request: "go" }, context)).toBe("The answer.");
  });

  it("makes its answer the caller's final response only when skipSummarization is set", async () => {
    const { agent } = scriptedAgent("writer", (context) => [say(context, "writer", "Final text.")]);
    const plain = await callerContext();
    await new AgentTool({ agent }).run({ request: "write" }, plain.context);
    expect(plain.context.actions.skipSummarization).toBeUndefined();
    const skipping = await callerContext();
    await new AgentTool({ agent, skipSummarization: true }).run({ request: "write" }, skipping.context);
    expect(skipping.context.actions.skipSummarization).toBe(true);
  });

  it("reports a pause when the agent stops for the client, marking the call as waiting and not skipping summarisation", async () => {
    // A model's long-running call does not pause (the run goes on after it); a request to the client does.
    const { agent } = scriptedAgent("approver", (context) => [
      say(context, "approver", "Waiting for approval.", {
        content: { role: "user", parts: [{ functionCall: { id: "inner-call", name: "adk_request_confirmation", args: {} } }] },
        longRunningToolIds: ["inner-call"],
      }),
    ]);
    const { context } = await callerContext();
    expect(context.pausedForClient).toBe(false);
    expect(await new AgentTool({ agent, skipSummarization: true }).run({ request: "approve" }, context)).toEqual({ status: "paused" });
    expect(context.pausedForClient).toBe(true);
    expect(context.actions.skipSummarization).toBeUndefined();
  });
});

describe("exitLoop", () => {
  it("escalates and makes its response final, answering as ADK's EXIT_LOOP does", async () => {
    const context = await createToolContext();
    expect(exitLoop.name).toBe("exit_loop");
    expect(exitLoop.declaration()).toMatchObject({ name: "exit_loop", parameters: { type: "object", properties: {} } });
    expect(exitLoop.declaration()!.description).toBe("Exits the loop.\n\nCall this function only when you are instructed to do so.");
    expect(await exitLoop.run({}, context)).toBe("");
    expect(context.actions.escalate).toBe(true);
    expect(context.actions.skipSummarization).toBe(true);
    expect(context.actions.stateDelta).toEqual({});
  });
});

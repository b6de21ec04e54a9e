import { describe, expect, it } from "vitest";
import { createEvent, FunctionTool, InMemorySessionService, LlmAgent, REQUEST_CONFIRMATION, Runner, type AgentLike, type Event, type LlmRequest } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompositeBackend, createDeepAgent, FilesystemBackend, StateBackend, storeBackend } from "../../src/tools/builtin/index.js";
import { summarize } from "../agents/event-summary.js";
import { withoutIdentity } from "../support/identity.js";

async function start(agent: AgentLike, sessionService = new InMemorySessionService(), userId = "u") {
  const runner = new Runner({ appName: "app", agent, sessionService });
  const created = await sessionService.createSession({ appName: "app", userId });
  const send = (message: string | { role: string; parts: object[] }) =>
    collect(runner.runAsync({ userId, sessionId: created.id, newMessage: typeof message === "string" ? userMessage(message) : (message as never) }));
  return { runner, created, send, sessionService };
}

const responsesOf = (request: LlmRequest) => request.contents.flatMap((content) => content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
const toolNames = (request: LlmRequest) => request.functionDeclarations.map((declaration) => declaration.name).sort();

/** Resolves once `count` parties have arrived; fails after a while so a serial run fails instead of hanging. */
function barrier(count: number) {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return async () => {
    if (++arrived === count) release();
    await Promise.race([all, new Promise((_, reject) => setTimeout(() => reject(new Error("the sub-agents did not run in parallel")), 5_000))]);
  };
}

describe("createDeepAgent", () => {
  it("plans, writes files, and runs two sub-agents (agent tools, as seed 002 has them) in parallel, each without the parent's history", async () => {
    const bothStarted = barrier(2);
    const researcherModel = new ScriptedModel([
      async () => {
        await bothStarted();
        return functionCallsResponse({ name: "read_file", args: { file_path: "/brief.md" } });
      },
      (request) => textResponse(`Researched: ${String(responsesOf(request)[0]!.response!.content).trim()}`),
    ]);
    const model = new ScriptedModel([
      functionCallsResponse(
        { name: "write_todos", args: { todos: [{ content: "Research", status: "in_progress" }, { content: "Summarise", status: "pending" }] } },
        { name: "write_file", args: { file_path: "/brief.md", content: "Topic: tides" } },
      ),
      functionCallsResponse(
        { name: "researcher", args: { request: "Read /brief.md and research it." } },
        { name: "general_purpose", args: { request: "Write a haiku about tides." } },
      ),
      // The general-purpose sub-agent uses the main model: this step is its turn.
      async () => {
        await bothStarted();
        return textResponse("Moon pulls the water");
      },
      (request) => textResponse(`Done: ${responsesOf(request).slice(-2).map((response) => JSON.stringify(response.response)).join(" | ")}`),
    ]);
    const agent = createDeepAgent({
      model,
      instruction: "You are a research lead.",
      subagents: [{ name: "researcher", description: "Researches a topic.", systemPrompt: "Research {carefully}.", model: researcherModel }],
    });
    const { send, runner, created } = await start(agent);
    const events = await send("Research tides");

    const final = events.at(-1)!;
    expect(final.content!.parts![0]!.text).toBe('Done: {"result":"Researched: 1\\tTopic: tides"} | {"result":"Moon pulls the water"}');
    // The main agent has one agent tool per sub-agent, taking ADK's request, described by its spec.
    expect(toolNames(model.requests[0]!)).toEqual(["edit_file", "general_purpose", "glob", "grep", "ls", "read_file", "read_todos", "researcher", "write_file", "write_todos"]);
    expect(model.requests[0]!.functionDeclarations.find((declaration) => declaration.name === "researcher")).toEqual({
      name: "researcher",
      description: "Researches a topic.",
      parameters: { type: "object", properties: { request: { type: "string" } }, required: ["request"] },
    });
    // The sub-agent saw only its task, and has the filesystem and todo tools but no sub-agents.
    expect(researcherModel.requests[0]!.contents).toEqual([{ role: "user", parts: [{ text: "Read /brief.md and research it." }] }]);
    expect(withoutIdentity(researcherModel.requests[0]!.systemInstruction)).toBe("Research {carefully}.");
    expect(toolNames(researcherModel.requests[0]!)).toEqual(["edit_file", "glob", "grep", "ls", "read_file", "read_todos", "write_file", "write_todos"]);
    // The general-purpose sub-agent has the main agent's tools, the sub-agents included.
    expect(toolNames(model.requests[2]!)).toContain("researcher");
    expect(withoutIdentity(model.requests[0]!.systemInstruction)).toMatch(/^You are a research lead\.\n\n## Planning/);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id });
    expect(stored!.state.todos).toEqual([{ content: "Research", status: "in_progress" }, { content: "Summarise", status: "pending" }]);
    expect(stored!.state["files:/brief.md"]).toMatchObject({ content: "Topic: tides" });
    model.assertComplete();
    researcherModel.assertComplete();
  });

  it("refuses to nest sub-agents deeper than maxSubagentDepth with an error the agent can act on", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "general_purpose", args: { request: "Delegate further." } }),
      functionCallsResponse({ name: "general_purpose", args: { request: "Too deep." } }),
      (request) => textResponse(`inner saw: ${String(responsesOf(request).at(-1)!.response!.message)}`),
      (request) => textResponse(String(responsesOf(request).at(-1)!.response!.result)),
    ]);
    const { send } = await start(createDeepAgent({ model, maxSubagentDepth: 1 }));
    const events = await send("go");
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("inner saw: Sub-agents may nest at most 1 deep, and this task would be 2 deep. Do this task yourself with your own tools.");
    model.assertComplete();
  });

  it("with taskTool offers one task(description, subagent_type) tool instead, as LangChain's deepagents, and answers an unknown type with the valid ones", async () => {
    const model = new ScriptedModel([
      functionCallsResponse({ name: "task", args: { subagent_type: "nobody", description: "x" } }),
      functionCallsResponse({ name: "task", args: { subagent_type: "general-purpose", description: "Say hi." } }),
      textResponse("hi"),
      (request) => textResponse(JSON.stringify(responsesOf(request).at(-1)!.response)),
    ]);
    const { send } = await start(createDeepAgent({ model, taskTool: true }));
    const events = await send("go");
    expect(toolNames(model.requests[0]!)).toContain("task");
    expect(toolNames(model.requests[0]!)).not.toContain("general_purpose");
    expect(JSON.stringify(events[1]!.content!.parts![0]!.functionResponse!.response)).toContain('subagent_type: must be one of [\\"general-purpose\\"]');
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('{"status":"success","result":"hi"}');
  });

  it("lets a spec named general_purpose replace the general one, takes agents made already, and needs no systemPrompt", async () => {
    const reviewer = new LlmAgent({ name: "reviewer", description: "Reviews a draft.", model: new ScriptedModel([textResponse("Looks good.")]) });
    const generalModel = new ScriptedModel([textResponse("custom general")]);
    const model = new ScriptedModel([
      functionCallsResponse({ name: "reviewer", args: { request: "Review /a.md." } }, { name: "general_purpose", args: { request: "Help." } }),
      (request) => textResponse(responsesOf(request).map((response) => String(response.response!.result)).join(" + ")),
    ]);
    const agent = createDeepAgent({ model, subagents: [reviewer, { name: "general_purpose", description: "My own general helper.", model: generalModel }] });
    const { send } = await start(agent);
    const events = await send("go");
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("Looks good. + custom general");
    expect(model.requests[0]!.functionDeclarations.filter((declaration) => declaration.name === "general_purpose").map((declaration) => declaration.description)).toEqual(["My own general helper."]);
    expect(withoutIdentity(generalModel.requests[0]!.systemInstruction)).toMatch(/^You are a general-purpose assistant/);
  });

  it("with interruptOn asks for confirmation before write_file, and writes only once the user approves", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "write_file", args: { file_path: "/plan.md", content: "step 1" } }), textResponse("Written.")]);
    const { send, runner, created } = await start(createDeepAgent({ model, interruptOn: { write_file: true, execute: true } }));
    const first = await send("write the plan");
    expect(summarize(first)).toEqual([
      'deep_agent | call write_file {"file_path":"/plan.md","content":"step 1"}',
      expect.stringContaining('deep_agent | response write_file {"status":"paused","waitingFor":"confirmation"'),
      `deep_agent | call ${REQUEST_CONFIRMATION} | waiting`,
    ]);
    const session = () => runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id });
    expect((await session())!.state["files:/plan.md"]).toBeUndefined();
    const request = first.flatMap((event: Event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION)!.functionCall!;
    const second = await send({ role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] });
    expect(summarize(second)).toEqual(['deep_agent | response write_file {"status":"success","path":"/plan.md"}', 'deep_agent | text "Written."']);
    expect((await session())!.state["files:/plan.md"]).toMatchObject({ content: "step 1" });
  });

  it("pauses the whole run when a sub-agent's write_file needs confirmation, and the sub-agent finishes once approved", async () => {
    const helperModel = new ScriptedModel([functionCallsResponse({ name: "write_file", args: { file_path: "/out.md", content: "from helper" } }), textResponse("Helper wrote /out.md.")]);
    const model = new ScriptedModel([
      functionCallsResponse({ name: "helper", args: { request: "Write /out.md." } }),
      (request) => textResponse(`Main got: ${String(responsesOf(request).at(-1)!.response!.result)}`),
    ]);
    const agent = createDeepAgent({ model, interruptOn: { write_file: true }, subagents: [{ name: "helper", description: "Writes files.", systemPrompt: "Write what you are asked.", model: helperModel }] });
    const { send, runner, created } = await start(agent);
    const first = await send("go");
    const request = first.flatMap((event: Event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION)!.functionCall!;
    expect(request.args).toMatchObject({ originalFunctionCall: { name: "write_file" } });
    const session = () => runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id });
    expect((await session())!.state["files:/out.md"]).toBeUndefined();
    const second = await send({ role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] });
    expect(second.at(-1)!.content!.parts![0]!.text).toBe("Main got: Helper wrote /out.md.");
    expect((await session())!.state["files:/out.md"]).toMatchObject({ content: "from helper" });
    model.assertComplete();
    helperModel.assertComplete();
  });

  it("keeps /memories in the user's store across sessions while other files stay in their session", async () => {
    const backend = new CompositeBackend({ defaultBackend: new StateBackend(), routes: { "/memories": storeBackend() } });
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel([
      functionCallsResponse({ name: "write_file", args: { file_path: "/memories/prefs.md", content: "likes tea" } }, { name: "write_file", args: { file_path: "/scratch.md", content: "temp" } }),
      textResponse("Saved."),
      functionCallsResponse({ name: "read_file", args: { file_path: "/memories/prefs.md" } }, { name: "read_file", args: { file_path: "/scratch.md" } }),
      (request) => textResponse(responsesOf(request).slice(-2).map((response) => String(response.response!.content ?? response.response!.code)).join(" / ")),
      functionCallsResponse({ name: "read_file", args: { file_path: "/memories/prefs.md" } }),
      (request) => textResponse(String(responsesOf(request).at(-1)!.response!.code)),
    ]);
    const agent = createDeepAgent({ model, backend });
    await (await start(agent, sessionService)).send("remember I like tea");
    const later = await (await start(agent, sessionService)).send("what do I like?");
    expect(later.at(-1)!.content!.parts![0]!.text).toBe("     1\tlikes tea / NOT_FOUND");
    const otherUser = await (await start(agent, sessionService, "someone-else")).send("what do I like?");
    expect(otherUser.at(-1)!.content!.parts![0]!.text).toBe("NOT_FOUND");
    model.assertComplete();
  });

  it("offloads a large result of the agent's own tool to a file it can read", async () => {
    const bigTool = new FunctionTool({ name: "fetch_log", description: "x", execute: () => ({ status: "success", output: "log line\n".repeat(10_000) }) });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "fetch_log" }),
      (request) => functionCallsResponse({ name: "read_file", args: { file_path: String(responsesOf(request).at(-1)!.response!.file_path), offset: 9_998 } }),
      (request) => textResponse(String(responsesOf(request).at(-1)!.response!.content)),
    ]);
    const { send } = await start(createDeepAgent({ model, tools: [bigTool], largeResultChars: 5_000 }));
    const events = await send("read the log");
    const response = events[1]!.content!.parts![0]!.functionResponse!.response;
    expect(JSON.stringify(response).length).toBeLessThan(5_000);
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("  9999\tlog line\n 10000\tlog line");
  });

  it("gives grep's own capped result to the model, not a file reference, as seed 002 says grep answers", async () => {
    const backend = new StateBackend();
    const model = new ScriptedModel([functionCallsResponse({ name: "grep", args: { pattern: "needle", output_mode: "content" } }), textResponse("found")]);
    const agent = createDeepAgent({ model, backend, largeResultChars: 5_000 });
    const { send, runner, created } = await start(agent);
    const session = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id });
    await runner.sessionService.appendEvent({ session: session!, event: { ...userEventWithFiles({ "files:/big.txt": { content: "needle here\n".repeat(2_000), modifiedAt: new Date(0).toISOString() } }) } });
    const events = await send("search");
    const response = events[1]!.content!.parts![0]!.functionResponse!.response!;
    expect(Object.keys(response).sort()).toEqual(["result", "status"]);
    expect(String(response.result).split("\n")).toHaveLength(2_000);
  });

  it("takes execution: \"local\" (seed 002's value), and refuses it over a backend with no directory, and other values, when the agent is made", async () => {
    expect(() => createDeepAgent({ model: new ScriptedModel([]), execution: "local" })).toThrow(expect.objectContaining({ code: "NO_WORKING_DIRECTORY", message: expect.stringContaining("FilesystemBackend") }));
    expect(() => createDeepAgent({ model: new ScriptedModel([]), execution: "heimdall" as never })).toThrow(expect.objectContaining({ code: "UNSUPPORTED_OPTION", message: expect.stringContaining('"local"') }));
    const root = mkdtempSync(join(tmpdir(), "toolsmith-deep-exec-"));
    try {
      const agent = createDeepAgent({ model: new ScriptedModel([]), execution: "local", backend: new FilesystemBackend({ rootDirectory: root }) });
      expect(agent.tools.map((tool) => (tool as { name?: string }).name)).toContain("execute");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("refuses a sub-agent spec key it does not take (a Python spelling, a typo), naming it, and a skills path with nothing there", () => {
    const make = (extra: Record<string, unknown>) => () => createDeepAgent({ model: new ScriptedModel([]), subagents: [{ name: "helper", description: "Helps.", ...extra } as never] });
    expect(make({ interrupt_on: { write_file: true } })).toThrow(expect.objectContaining({ code: "UNSUPPORTED_OPTION", message: 'Sub-agent "helper": the option interrupt_on is not supported: write interruptOn (camelCase).' }));
    expect(make({ system_prompt: "x" })).toThrow(/write systemPrompt \(camelCase\)/);
    expect(make({ skils: [] })).toThrow(/it is not a SubAgentSpec field \(name, description, systemPrompt, tools, model, skills, interruptOn\)/);
    expect(make({ skills: ["./no-such-skills"] })).toThrow(expect.objectContaining({ code: "INVALID_SKILL", message: expect.stringMatching(/no-such-skills cannot be loaded: nothing is there\. Give the path of a skill's folder/) }));
    expect(make({ systemPrompt: "fine", tools: undefined, skills: [], interruptOn: {} })).not.toThrow();
  });
});

/** A user event whose state delta puts files straight into a StateBackend's keys. */
function userEventWithFiles(files: Record<string, unknown>): Event {
  return createEvent({ invocationId: "setup", author: "user", actions: { stateDelta: files } });
}

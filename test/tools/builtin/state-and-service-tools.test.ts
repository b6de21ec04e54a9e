import { describe, expect, it } from "vitest";
import { FunctionTool, type LlmRequest } from "../../../src/index.js";
import {
  createLoadArtifactsTool,
  createLoadMemoryTool,
  createPreloadMemoryTool,
  createTodoTools,
  offloadLargeResults,
  applyInterruptOn,
  StateBackend,
  createReadFileTool,
  TODOS_STATE_KEY,
} from "../../../src/tools/builtin/index.js";
import { pick, toolHarness } from "./tool-harness.js";

const emptyRequest = (): LlmRequest => ({ contents: [], systemInstruction: "Base.", functionDeclarations: [], config: {} });

describe("todo tools", () => {
  it("keeps the list in session state and reads it back", async () => {
    const { call, session } = await toolHarness();
    const [write, read] = [pick(createTodoTools(), "write_todos"), pick(createTodoTools(), "read_todos")];
    // The result keys are seed 002's: write_todos answers {status, count}, read_todos {todos}.
    expect(await call(read, {})).toEqual({ todos: [] });
    const todos = [
      { content: "Find the bug", status: "completed" },
      { content: "Fix it", status: "in_progress" },
      { content: "Add a test", status: "pending" },
    ];
    expect(await call(write, { todos })).toEqual({ status: "success", count: 3 });
    expect(session.state[TODOS_STATE_KEY]).toEqual(todos);
    expect(await call(read, {})).toEqual({ todos });
  });

  it("refuses an item with an unknown status or no content and keeps the old list", async () => {
    const { call, session } = await toolHarness();
    const write = pick(createTodoTools(), "write_todos");
    await call(write, { todos: [{ content: "keep me", status: "pending" }] });
    const bad = await call(write, { todos: [{ content: "x", status: "done" }, { status: "pending" }] });
    expect(bad.status).toBe("error");
    expect(JSON.stringify(bad)).toContain("status");
    expect(session.state[TODOS_STATE_KEY]).toEqual([{ content: "keep me", status: "pending" }]);
  });

  it("gives a sub-agent (a branch with an @call part) its own list for the invocation", async () => {
    const { call, session } = await toolHarness({ branch: "main.helper@call_1" });
    await call(pick(createTodoTools(), "write_todos"), { todos: [{ content: "sub step", status: "pending" }] });
    expect(session.state[TODOS_STATE_KEY]).toBeUndefined();
    expect(session.state["temp:todos@main.helper@call_1"]).toEqual([{ content: "sub step", status: "pending" }]);
  });
});

describe("memory tools", () => {
  async function withMemory() {
    const harness = await toolHarness();
    const past = await harness.sessionService.createSession({ appName: "app", userId: "u" });
    past.events.push({ id: "e1", invocationId: "i", author: "user", timestamp: Date.now(), content: { role: "user", parts: [{ text: "My favourite colour is teal." }] }, actions: {} } as never);
    await harness.memoryService.addSessionToMemory(past);
    return harness;
  }

  it("load_memory searches the user's memory", async () => {
    const { call } = await withMemory();
    const result = await call(createLoadMemoryTool(), { query: "favourite colour" });
    expect(result.memories).toEqual([{ content: "My favourite colour is teal.", author: "user", timestamp: expect.anything() }]);
  });

  it("preload_memory adds memories matching the user's message to the instruction, without a tool call", async () => {
    const { invocation, context } = await withMemory();
    const tool = createPreloadMemoryTool();
    expect(tool.declaration()).toBeUndefined();
    Object.assign(invocation, { userContent: { role: "user", parts: [{ text: "what is my favourite colour?" }] } });
    const request = emptyRequest();
    await tool.processLlmRequest!({ llmRequest: request, toolContext: context() });
    expect(request.systemInstruction).toMatch(/^Base\.\n\n[\s\S]*PAST_CONVERSATIONS[\s\S]*teal/);
  });
});

describe("load_artifacts", () => {
  it("lists artifacts in the instruction and adds the named ones to the request after the call", async () => {
    const { call, context } = await toolHarness();
    await context().saveArtifact("report.txt", { text: "Quarterly numbers: 42" });
    const tool = createLoadArtifactsTool();
    expect(await call(tool, { artifact_names: ["nope.txt"] })).toMatchObject({ status: "error", error: expect.stringContaining("Available: report.txt") });
    const response = await call(tool, { artifact_names: ["report.txt"] });
    expect(response).toEqual({ artifact_names: ["report.txt"], status: expect.stringContaining("call load_artifacts tool again") });
    const request = emptyRequest();
    request.contents = [{ role: "user", parts: [{ functionResponse: { id: "1", name: "load_artifacts", response } }] }];
    await tool.processLlmRequest!({ llmRequest: request, toolContext: context() });
    expect(request.systemInstruction).toContain('["report.txt"]');
    expect(request.contents.at(-1)).toEqual({ role: "user", parts: [{ text: "Artifact report.txt is:" }, { text: "Quarterly numbers: 42" }] });
  });
});

describe("large results", () => {
  it("saves a result over the limit to the backend and returns a preview and the path, readable with read_file", async () => {
    const { call } = await toolHarness();
    const backend = new StateBackend();
    const big = new FunctionTool({ name: "dump", description: "x", execute: () => ({ status: "success", output: Array.from({ length: 3000 }, (_, index) => `row ${index}`).join("\n") }) });
    const wrapped = offloadLargeResults(big, { backend, maxChars: 1000, previewChars: 50 });
    const result = await call(wrapped, {});
    expect(result).toMatchObject({ status: "success", file_path: expect.stringMatching(/^\/large_tool_results\/dump-call-\d+\.txt$/), preview: expect.stringMatching(/^row 0\nrow 1/) });
    expect(String(result.preview)).toHaveLength(50);
    expect(result.message).toContain("read_file");
    const page = await call(createReadFileTool({ backend }), { file_path: result.file_path, offset: 2999, limit: 5 });
    expect(page.content).toBe("  3000\trow 2999");
    const small = offloadLargeResults(new FunctionTool({ name: "tiny", description: "x", execute: () => ({ status: "success", value: 1 }) }), { backend, maxChars: 1000 });
    expect(await call(small, {})).toEqual({ status: "success", value: 1 });
  });

  it("interruptOn makes the named tools ask for confirmation and leaves the others alone", async () => {
    const { context } = await toolHarness();
    const [write, read] = applyInterruptOn(createTodoTools(), { write_todos: true });
    expect(await write!.requiresConfirmation!({}, context())).toBe(true);
    expect(await read!.requiresConfirmation!({}, context())).toBe(false);
    const [conditional] = applyInterruptOn([pick(createTodoTools(), "write_todos")], { write_todos: (args) => Array.isArray(args.todos) && args.todos.length > 2 });
    expect(await conditional!.requiresConfirmation!({ todos: [1] }, context())).toBe(false);
    expect(await conditional!.requiresConfirmation!({ todos: [1, 2, 3] }, context())).toBe(true);
  });
});

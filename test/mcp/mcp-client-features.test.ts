import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { FunctionTool, getFunctionResponses, LlmAgent, Runner, type Event } from "../../src/index.js";
import { createMcpServer, LoadMcpResourceTool, logToClient, MCPToolset, type McpLogMessage, type MCPToolsetOptions } from "../../src/mcp/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { startChildServer } from "../support/child-server.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { referenceServer } from "./server-paths.js";

const everything = referenceServer("everything");
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function toolset(options: MCPToolsetOptions): MCPToolset {
  const made = new MCPToolset(options);
  cleanups.push(() => made.close());
  return made;
}

async function run(agent: LlmAgent, text: string): Promise<Event[]> {
  const runner = new Runner({ appName: "mcp", agent });
  const session = await runner.sessionService.createSession({ appName: "mcp", userId: "u1" });
  return collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage(text) }));
}

const stdioEverything = { command: process.execPath, args: [everything], stderr: "ignore" as const };

describe("an agent using everything server-everything offers besides tools (stdio)", () => {
  it("loads a resource through load_mcp_resource, after being told which resources exist", async () => {
    const docs = toolset({ connection: stdioEverything, toolFilter: [] });
    const names = await docs.listResources();
    expect(names).toContain("features.md");
    const model = new ScriptedModel([functionCallsResponse({ name: "load_mcp_resource", args: { resource_names: ["features.md", "no-such.md"] } }), textResponse("read it")]);
    const events = await run(new LlmAgent({ name: "reader", model, tools: [docs, new LoadMcpResourceTool(docs)] }), "what can the server do?");

    expect(model.requests[0]!.systemInstruction).toContain('"features.md"');
    const response = getFunctionResponses(events[1]!.content)[0]!.response as { resources: { name: string; text: string }[]; failed: string[] };
    expect(response.resources[0]).toMatchObject({ name: "features.md", uri: "demo://resource/static/document/features.md", text: expect.stringContaining("# Everything Server - Features") });
    expect(response.failed).toEqual([expect.stringContaining('The MCP server has no resource named "no-such.md". Its resources: ')]);
  });

  it("answers the server's sampling request with the given model, its elicitation with the handler, and lists roots", async () => {
    const sampler = new ScriptedModel([textResponse("Paris is the capital.")]);
    const asked: string[] = [];
    const server = toolset({
      connection: stdioEverything,
      samplingModel: sampler,
      onElicitation: async (request) => {
        asked.push(request.message);
        return { action: "decline" };
      },
      roots: [{ uri: "file:///srv/work", name: "work" }],
    });
    const tools = await server.getTools(await createReadonlyContext());
    const call = (name: string, args: Record<string, unknown> = {}) => createToolContext().then((context) => tools.find((tool) => tool.name === name)!.run(args, context));

    const sampled = (await call("trigger-sampling-request", { prompt: "Capital of France?" })) as { text: string };
    expect(sampled.text).toContain("Paris is the capital.");
    expect(sampler.requests[0]!.contents[0]!.parts![0]!.text).toContain("Capital of France?");
    expect(((await call("trigger-elicitation-request")) as { text: string }).text).toContain("User declined");
    expect(asked).toHaveLength(1);
    expect(((await call("get-roots-list")) as { text: string }).text).toMatch(/file:\/\/\/srv\/work/);
  });

  it("lists prompts, fills one in, and uses one as an agent's instruction", async () => {
    const prompts = toolset({ connection: stdioEverything });
    expect((await prompts.listPrompts()).map((prompt) => prompt.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt"]));
    const filled = await prompts.getPrompt("args-prompt", { city: "Lyon" });
    expect(filled.messages[0]!.content).toMatchObject({ type: "text", text: expect.stringContaining("Lyon") });
    const model = new ScriptedModel([textResponse("ok")]);
    await run(new LlmAgent({ name: "asker", model, instruction: prompts.promptInstruction("args-prompt", { city: "Lyon" }) }), "go");
    expect(model.requests[0]!.systemInstruction).toContain("Lyon");
    await expect(prompts.getPrompt("args-prompt", {})).rejects.toThrow(/city/);
  });

  it("receives the server's log messages at the level asked for, and tells subscribers of resource changes until they unsubscribe", async () => {
    const logs: McpLogMessage[] = [];
    const server = toolset({ connection: stdioEverything, toolFilter: ["toggle-simulated-logging", "toggle-subscriber-updates"], logLevel: "debug", onLog: (message) => logs.push(message) });
    const model = new ScriptedModel([functionCallsResponse({ name: "toggle-simulated-logging", args: {} }), textResponse("logging on")]);
    await run(new LlmAgent({ name: "ops", model, tools: [server] }), "turn on logging");
    await expect.poll(() => logs.length).toBeGreaterThanOrEqual(1);
    expect(logs[0]).toMatchObject({ level: expect.any(String), data: expect.stringMatching(/message/i) });

    const updates: string[] = [];
    const watched = "demo://resource/dynamic/text/1";
    const unsubscribe = await server.subscribeResource(watched, (uri) => updates.push(uri));
    const toggle = (await server.getTools(await createReadonlyContext())).find((tool) => tool.name === "toggle-subscriber-updates")!;
    await toggle.run({}, await createToolContext());
    await expect.poll(() => updates).toContain(watched);
    await unsubscribe();
    const seen = updates.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(updates).toHaveLength(seen);
  });
});

describe("MCP client features with toolsmith's own server: log messages as events of the run", () => {
  it("turns a served tool's log messages into partial events of the calling run, at or above the level asked for", async () => {
    const worker = new FunctionTool({
      name: "import_rows",
      description: "Imports rows.",
      execute: async (_args, context) => {
        logToClient(context, "debug", "opening file");
        logToClient(context, "warning", "row 7 skipped");
        await new Promise((resolve) => setTimeout(resolve, 50));
        return "imported 9 rows";
      },
    });
    const served = createMcpServer({ tools: [worker] });
    const listener = await served.listen();
    cleanups.push(() => listener.close(), () => served.close());
    const remote = toolset({ connection: { type: "http", url: listener.url }, logLevel: "info" });
    const model = new ScriptedModel([functionCallsResponse({ name: "import_rows", args: {} }), textResponse("done")]);
    const events = await run(new LlmAgent({ name: "importer", model, tools: [remote] }), "import");
    const logs = events.filter((event) => event.customMetadata?.mcpLog).map((event) => event.customMetadata!.mcpLog);
    expect(logs).toEqual([{ functionCallId: expect.any(String), level: "warning", data: "row 7 skipped" }]);
    expect(getFunctionResponses(events.find((event) => getFunctionResponses(event.content).length)!.content)[0]!.response).toEqual({ text: "imported 9 rows" });
  });
});

describe.each([
  ["Streamable HTTP", "streamableHttp", "http", "/mcp"],
  ["SSE", "sse", "sse", "/sse"],
] as const)("resources and prompts of server-everything over %s", (_label, mode, type, path) => {
  it("lists resources and templates, reads one by name and one from a template, and gets a prompt", async () => {
    const server = await startChildServer({ args: [everything, mode], ready: /listening on port|running on port/i });
    cleanups.push(() => server.stop());
    const remote = toolset({ connection: { type, url: `http://127.0.0.1:${server.port}${path}` } });
    expect(await remote.listResources()).toContain("instructions.md");
    expect((await remote.listResourceTemplates()).map((template) => template.uriTemplate)).toContain("demo://resource/dynamic/text/{resourceId}");
    expect((await remote.readResource("instructions.md"))[0]).toMatchObject({ mimeType: "text/markdown", text: expect.any(String) });
    expect((await remote.readResourceUri("demo://resource/dynamic/blob/2"))[0]).toMatchObject({ blob: expect.any(String) });
    expect((await remote.getPrompt("simple-prompt")).messages).toHaveLength(1);
  });
});

describe("server-filesystem given its folder as an MCP root", () => {
  it("works in the folder the client's roots name, with no folder on its command line", async () => {
    const folder = mkdtempSync(join(tmpdir(), "toolsmith-roots-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    writeFileSync(join(folder, "plan.txt"), "ship on Friday");
    const files = toolset({ connection: { command: process.execPath, args: [referenceServer("filesystem")], stderr: "ignore" }, roots: [{ uri: pathToFileURL(folder).href, name: "work" }] });
    const read = (await files.getTools(await createReadonlyContext())).find((tool) => tool.name === "read_text_file")!;
    await expect.poll(async () => read.run({ path: join(folder, "plan.txt") }, await createToolContext()), { timeout: 5000 }).toMatchObject({ text: "ship on Friday" });
  });
});

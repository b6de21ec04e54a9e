import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getFunctionResponses, LlmAgent, Runner } from "../../src/index.js";
import { MCPToolset } from "../../src/mcp/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { referenceServer } from "./server-paths.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "toolsmith-mcp-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

describe("MCPToolset with server-filesystem", () => {
  it("writes and reads a real file through an agent, and refuses paths outside the allowed folder", async () => {
    const folder = temporaryFolder();
    const outside = temporaryFolder();
    writeFileSync(join(outside, "secret.txt"), "do not read");
    const files = new MCPToolset({ connection: { command: process.execPath, args: [referenceServer("filesystem"), folder], stderr: "ignore" }, prefix: "fs" });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "fs_write_file", args: { path: join(folder, "note.txt"), content: "hello from the agent" } }),
      functionCallsResponse({ name: "fs_read_text_file", args: { path: join(folder, "note.txt") } }, { name: "fs_read_text_file", args: { path: join(outside, "secret.txt") } }),
      textResponse("done"),
    ]);
    const runner = new Runner({ appName: "files", agent: new LlmAgent({ name: "clerk", model, tools: [files] }) });
    cleanups.push(() => runner.close());
    const session = await runner.sessionService.createSession({ appName: "files", userId: "u1" });
    const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage("write a note") }));

    expect(readFileSync(join(folder, "note.txt"), "utf8")).toBe("hello from the agent");
    const [inside, denied] = getFunctionResponses(events[3]!.content).map((response) => response.response);
    expect(inside).toMatchObject({ text: "hello from the agent" });
    expect(denied).toMatchObject({ status: "error", error: expect.stringMatching(/denied|outside|not allowed/i) });
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("do not read");
  });
});

describe("MCPToolset stdio options", () => {
  it("starts the server in the given cwd", async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, "here.txt"), "found");
    // The allowed folder "." is resolved by the server against its working directory.
    const files = new MCPToolset({ connection: { command: process.execPath, args: [referenceServer("filesystem"), "."], cwd: folder, stderr: "ignore" } });
    cleanups.push(() => files.close());
    const read = (await files.getTools(await createReadonlyContext())).find((tool) => tool.name === "read_text_file")!;
    expect(await read.run({ path: join(folder, "here.txt") }, await createToolContext())).toMatchObject({ text: "found" });
  });
});

describe("MCPToolset with server-memory", () => {
  it("stores entities in the file named by the env it is given and reads them back", async () => {
    const memoryFile = join(temporaryFolder(), "memory.jsonl");
    const memory = new MCPToolset({ connection: { command: process.execPath, args: [referenceServer("memory")], env: { MEMORY_FILE_PATH: memoryFile }, stderr: "ignore" } });
    cleanups.push(() => memory.close());
    const tools = await memory.getTools(await createReadonlyContext());
    const create = tools.find((tool) => tool.name === "create_entities")!;
    const read = tools.find((tool) => tool.name === "read_graph")!;
    const context = await createToolContext();
    await create.run({ entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] }, context);

    const graph = (await read.run({}, context)) as Record<string, unknown>;
    const entities = ((graph.structuredContent as { entities: unknown[] } | undefined)?.entities ?? JSON.parse(String(graph.text)).entities) as unknown[];
    expect(entities).toEqual([expect.objectContaining({ name: "Ada", entityType: "person", observations: ["wrote the first program"] })]);
    expect(readFileSync(memoryFile, "utf8")).toContain("wrote the first program");
  });
});

/**
 * The tools `MCPToolset.getTools()` gives are `BaseTool`s, as ADK's `MCPTool`s are: an ADK program that checks
 * `isBaseTool`, reads `_getDeclaration()` or calls `runAsync({ args, toolContext })` by hand works with them. A
 * call by hand is checked and held for confirmation as a run's call is. Against the MCP reference server from npm.
 */
import { MCPToolset as AdkMCPToolset } from "@google/adk";
import { afterEach, describe, expect, it } from "vitest";
import { BaseTool, InvalidArgumentsError, isBaseTool } from "../../src/index.js";
import { fromAdkConnectionParams } from "../../src/mcp/adk-connection-params.js";
import { MCPToolset } from "../../src/mcp/index.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { memoryServerParams } from "./server-paths.js";

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const memoryServer = () => memoryServerParams((cleanup) => cleanups.push(cleanup));

describe("MCPToolset's tools as BaseTools", () => {
  it("are BaseTools with ADK's declaration, as ADK's MCPTools are", async () => {
    const ours = new MCPToolset(memoryServer());
    const theirs = new AdkMCPToolset(memoryServer() as never);
    cleanups.push(() => ours.close(), () => theirs.close());
    const tools = await ours.getTools(await createReadonlyContext());
    const adkTools = (await theirs.getTools()) as unknown as Array<{ name: string; _getDeclaration(): { name?: string; description?: string } }>;
    expect(tools.length).toBeGreaterThan(3);
    expect(tools.every((tool) => tool instanceof BaseTool && isBaseTool(tool))).toBe(true);
    const declared = (tool: { _getDeclaration(): { name?: string; description?: string } | undefined }) => ({ name: tool._getDeclaration()?.name, description: tool._getDeclaration()?.description });
    expect((tools as unknown as BaseTool[]).map(declared).sort((a, b) => a.name!.localeCompare(b.name!))).toEqual(adkTools.map(declared).sort((a, b) => a.name!.localeCompare(b.name!)));
  });

  it("lists the server's tools when getTools() is called without a context, as ADK's docs call it, the same as ADK's", async () => {
    const ours = new MCPToolset(memoryServer(), ["read_graph", "search_nodes"]);
    const theirs = new AdkMCPToolset(memoryServer() as never, ["read_graph", "search_nodes"]);
    cleanups.push(() => ours.close(), () => theirs.close());
    const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name).sort();
    expect(names(await ours.getTools())).toEqual(names((await theirs.getTools()) as unknown as Array<{ name: string }>));
    expect(names(await ours.getTools())).toEqual(["read_graph", "search_nodes"]);
  });

  it("refuses getTools() without a context when its headers are a function of the run's context, saying what to do", async () => {
    const toolset = new MCPToolset({ connection: { type: "http", url: "http://127.0.0.1:9/mcp", headers: (context) => ({ "x-user": context.userId }) } });
    cleanups.push(() => toolset.close());
    await expect(toolset.getTools()).rejects.toMatchObject({
      code: "NO_TOOL_CONTEXT",
      message: "MCPToolset.getTools() was called without a context, and this toolset's headers are a function of the run's context. Call getTools(context) from a run (a callback or a tool has one), or give headers as an object.",
    });
  });

  it("stay BaseTools under a prefix, still hearing a person's no to the server's questions (runsWhenDeclined)", async () => {
    const toolset = new MCPToolset(memoryServer(), undefined, "mem");
    cleanups.push(() => toolset.close());
    const tools = await toolset.getTools(await createReadonlyContext());
    expect(tools.every((tool) => tool.name.startsWith("mem_") && tool instanceof BaseTool && (tool as { runsWhenDeclined?: boolean }).runsWhenDeclined === true)).toBe(true);
    const read = tools.find((tool) => tool.name === "mem_read_graph") as unknown as BaseTool;
    expect(read._getDeclaration()?.name).toBe("mem_read_graph");
    expect(JSON.stringify(await read.runAsync({ args: {}, toolContext: await createToolContext() }))).toContain("entities");
  });

  it("runs by hand with its arguments checked first, as a run would", async () => {
    const toolset = new MCPToolset(memoryServer());
    cleanups.push(() => toolset.close());
    const byName = new Map((await toolset.getTools(await createReadonlyContext())).map((tool) => [tool.name, tool as unknown as BaseTool]));
    const create = byName.get("create_entities")!;
    const toolContext = await createToolContext();
    const wrong = await create.runAsync({ args: { entities: "Ada" }, toolContext }).catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(InvalidArgumentsError);
    expect((wrong as InvalidArgumentsError).message).toMatch(/^Invalid arguments for tool "create_entities": entities: /);
    await create.runAsync({ args: { entities: [{ name: "Ada", entityType: "person", observations: ["first program"] }] }, toolContext });
    expect(JSON.stringify(await byName.get("search_nodes")!.runAsync({ args: { query: "Ada" }, toolContext }))).toContain("first program");
  });

  it("holds a call the toolset's rule marks for confirmation, and runs it once confirmed", async () => {
    const toolset = new MCPToolset({ connection: fromAdkConnectionParams(memoryServer()), requireConfirmation: (name) => name === "delete_entities" });
    cleanups.push(() => toolset.close());
    const byName = new Map((await toolset.getTools(await createReadonlyContext())).map((tool) => [tool.name, tool as unknown as BaseTool]));
    const remove = byName.get("delete_entities")!;
    expect(await remove.checkRequireConfirmation({ entityNames: ["Ada"] })).toBe(true);
    expect(await byName.get("read_graph")!.checkRequireConfirmation({})).toBe(false);
    const asking = await createToolContext();
    expect(await remove.runAsync({ args: { entityNames: ["Ada"] }, toolContext: asking })).toEqual({ error: "This tool call requires confirmation, please approve or reject." });
    expect(asking.actions.requestedToolConfirmations["call-1"]).toMatchObject({ confirmed: false });
    const confirmed = await createToolContext();
    Object.assign(confirmed, { toolConfirmation: { confirmed: true } });
    expect(await remove.runAsync({ args: { entityNames: ["Ada"] }, toolContext: confirmed })).not.toHaveProperty("error");
  });
});

/**
 * `new MCPToolset(connectionParams, toolFilter?, prefix?)`, ADK's form, next to toolsmith's options object: the
 * same arguments give the same tools on @google/adk 2.0 and on toolsmith (run side by side against the MCP
 * reference server from npm), a run calls them, and what toolsmith cannot honour is refused by name.
 */
import { MCPToolset as AdkMCPToolset } from "@google/adk";
import { afterEach, describe, expect, it } from "vitest";
import { getFunctionResponses, isToolsmithError, LlmAgent, Runner } from "../../src/index.js";
import { fromAdkConnectionParams, type MCPConnectionParams } from "../../src/mcp/adk-connection-params.js";
import { MCPToolset } from "../../src/mcp/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createReadonlyContext } from "../support/tool-context.js";
import { memoryServerParams } from "./server-paths.js";

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const memoryServer = () => memoryServerParams((cleanup) => cleanups.push(cleanup));

/** Either framework's toolset, as far as listing its tools goes. */
interface ListsTools {
  getTools(context: never): Promise<{ name: string }[]>;
  close(): Promise<void>;
}

async function toolNames(make: () => ListsTools) {
  const toolset = make();
  cleanups.push(() => toolset.close());
  return (await toolset.getTools((await createReadonlyContext()) as never)).map((tool) => tool.name).sort();
}

describe("MCPToolset made as ADK makes it", () => {
  it("offers the same tools as ADK's for the same arguments: a prefix, and a filter of prefixed names (an empty one keeps all)", async () => {
    for (const [filter, prefix] of [[undefined, undefined], [[], "mem"], [["mem_read_graph", "mem_search_nodes", "read_graph"], "mem"], [["read_graph"], undefined]] as const) {
      const adk = await toolNames(() => new AdkMCPToolset(memoryServer() as never, filter as string[] | undefined, prefix) as never);
      const toolsmith = await toolNames(() => new MCPToolset(memoryServer(), filter, prefix) as unknown as ListsTools);
      expect(toolsmith).toEqual(adk);
      expect(toolsmith.length).toBeGreaterThan(0);
    }
  });

  it("calls the server's tools in a run", async () => {
    const memory = new MCPToolset(memoryServer(), undefined, "mem");
    const model = new ScriptedModel([
      functionCallsResponse({ name: "mem_create_entities", args: { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] } }),
      functionCallsResponse({ name: "mem_search_nodes", args: { query: "Ada" } }),
      textResponse("Ada wrote the first program."),
    ]);
    const runner = new Runner({ appName: "memory", agent: new LlmAgent({ name: "keeper", model, tools: [memory] }) });
    cleanups.push(() => runner.close());
    const session = await runner.sessionService.createSession({ appName: "memory", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Remember Ada.") }));
    const found = getFunctionResponses(events[3]).map((response) => JSON.stringify(response.response));
    expect(found.join("")).toContain("wrote the first program");
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe("Ada wrote the first program.");
  });
});

describe("fromAdkConnectionParams", () => {
  it("maps ADK's stdio and HTTP parameters to toolsmith's connection, headers as ADK takes them", () => {
    expect(fromAdkConnectionParams({ type: "StdioConnectionParams", serverParams: { command: "node", args: ["server.js"], env: { A: "1" }, cwd: "/srv" } })).toEqual({ type: "stdio", command: "node", args: ["server.js"], env: { A: "1" }, cwd: "/srv", stderr: undefined });
    expect(fromAdkConnectionParams({ type: "StreamableHTTPConnectionParams", url: "https://mcp.example/mcp", header: { Authorization: "Bearer t", "X-Count": 3 } })).toEqual({
      type: "http",
      url: "https://mcp.example/mcp",
      headers: { Authorization: "Bearer t", "X-Count": "3" },
    });
    // The transport options' headers replace the deprecated field, as in ADK.
    expect(fromAdkConnectionParams({ type: "StreamableHTTPConnectionParams", url: "https://mcp.example/mcp", header: { A: "old" }, transportOptions: { requestInit: { headers: { B: "new" } } } })).toMatchObject({ headers: { B: "new" } });
  });

  it("refuses what toolsmith cannot honour by name, where ADK drops it", () => {
    const refusal = (params: MCPConnectionParams) => {
      try {
        fromAdkConnectionParams(params);
      } catch (error) {
        if (isToolsmithError(error)) return [error.code, error.message];
      }
      return undefined;
    };
    expect(refusal({ type: "StdioConnectionParams", serverParams: { command: "node" }, timeout: 5 })).toEqual([
      "UNSUPPORTED_OPTION",
      "MCPToolset: StdioConnectionParams.timeout is not supported by toolsmith (ADK 2.0 does not read it either). Leave it out; the longest a call may wait is MCPToolset's callTimeoutMs option.",
    ]);
    expect(refusal({ type: "StdioConnectionParams", serverParams: { command: "node", stderr: process.stderr } })?.[1]).toMatch(/serverParams\.stderr .* Use "inherit", "ignore" or "pipe"\.$/);
    expect(refusal({ type: "StreamableHTTPConnectionParams", url: "https://x/mcp", sseReadTimeout: 300 })?.[0]).toBe("UNSUPPORTED_OPTION");
    expect(refusal({ type: "StreamableHTTPConnectionParams", url: "https://x/mcp", terminateOnClose: true })?.[0]).toBe("UNSUPPORTED_OPTION");
    expect(refusal({ type: "StreamableHTTPConnectionParams", url: "https://x/mcp", transportOptions: { sessionId: "s1" } })?.[1]).toMatch(/transportOptions\.sessionId is not supported/);
    expect(refusal({ type: "StreamableHTTPConnectionParams", url: "https://x/mcp", transportOptions: { requestInit: { credentials: "include" } as never } })?.[1]).toMatch(/transportOptions\.requestInit\.credentials is not supported/);
  });

  it("refuses positional arguments beside toolsmith's options object, which has its own", () => {
    const error = (() => {
      try {
        return new MCPToolset({ connection: { command: "node" } }, ["a"]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(isToolsmithError(error) && error.message).toBe("MCPToolset: with toolsmith's options object, give toolFilter and prefix in it: new MCPToolset({ connection, toolFilter, prefix }).");
  });
});

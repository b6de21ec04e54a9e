import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { FunctionTool, type Tool, type Toolset } from "../../src/index.js";
import { createMcpServer, MCPToolset, reportProgress, serveAgentModule } from "../../src/mcp/index.js";
import { referenceServer } from "./server-paths.js";
import { isToolsmithError } from "../../src/index.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { echoAgent, servedTools } from "./fixtures/served-tools.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serveOverHttp() {
  const server = createMcpServer({ name: "fixture", tools: servedTools(), agents: [echoAgent()] });
  const listener = await server.listen();
  cleanups.push(() => listener.close(), () => server.close());
  return { server, url: listener.url };
}

/** The JSON a tool without an output schema sends as its one text block. */
function jsonText(result: Record<string, unknown>): unknown {
  const [block] = result.content as { type: string; text: string }[];
  expect(block!.type).toBe("text");
  return JSON.parse(block!.text);
}

async function officialClient(url: string) {
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

describe("toolsmith as an MCP server, driven by the official MCP client", () => {
  it("lists the tools and the agent with their declared input schemas", async () => {
    const client = await officialClient((await serveOverHttp()).url);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["count", "get_weather_report", "shout", "explode", "refuse", "echo_agent"]);
    expect(tools[1]!.inputSchema).toMatchObject({ type: "object", properties: { city: { type: "string", description: "The city name" } }, required: ["city"] });
    expect(tools[5]!.inputSchema).toMatchObject({ type: "object", required: ["request"] });
  });

  it("sends a tool's object result once, as JSON text, when the tool has no output schema, and other values as text", async () => {
    const client = await officialClient((await serveOverHttp()).url);
    const weather = await client.callTool({ name: "get_weather_report", arguments: { city: "Paris" } });
    expect(weather.content).toEqual([{ type: "text", text: JSON.stringify({ status: "success", report: "Sunny in Paris" }) }]);
    expect(weather.structuredContent).toBeUndefined();
    const shout = await client.callTool({ name: "shout", arguments: { text: "hey" } });
    expect(shout).toMatchObject({ content: [{ type: "text", text: "HEY" }] });
    expect(shout.structuredContent).toBeUndefined();
  });

  it("answers bad arguments, failures, error results and unknown tools with isError results", async () => {
    const client = await officialClient((await serveOverHttp()).url);
    const bad = await client.callTool({ name: "get_weather_report", arguments: { town: "Paris" } });
    expect(bad).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringMatching(/Invalid arguments.*city/) }] });
    expect(await client.callTool({ name: "explode", arguments: {} })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("the fuse was lit") }] });
    expect(await client.callTool({ name: "refuse", arguments: {} })).toMatchObject({ isError: true, content: [{ text: "No such city; ask for another." }] });
    expect(await client.callTool({ name: "nope", arguments: {} })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("Available tools: count") }] });
  });

  it("refuses a tool that requires confirmation, without running it", async () => {
    let ran = false;
    const server = createMcpServer({ tools: [new FunctionTool({ name: "delete_all", description: "Deletes everything.", requireConfirmation: true, execute: () => ((ran = true), "deleted") })] });
    const listener = await server.listen();
    cleanups.push(() => listener.close(), () => server.close());
    const client = await officialClient(listener.url);
    expect(await client.callTool({ name: "delete_all", arguments: {} })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("confirmation") }] });
    expect(ran).toBe(false);
  });

  it("sends a served tool's progress to a client that asked for it", async () => {
    const slow = new FunctionTool({
      name: "slow",
      description: "Reports progress.",
      execute: async (_args, context) => {
        for (const progress of [1, 2, 3]) reportProgress(context, { progress, total: 3, message: `step ${progress}` });
        await new Promise((resolve) => setTimeout(resolve, 20));
        return "done";
      },
    });
    const server = createMcpServer({ tools: [slow] });
    const listener = await server.listen();
    cleanups.push(() => listener.close(), () => server.close());
    const client = await officialClient(listener.url);
    const updates: unknown[] = [];
    await client.callTool({ name: "slow", arguments: {} }, undefined, { onprogress: (update) => updates.push(update) });
    expect(updates).toEqual([1, 2, 3].map((progress) => ({ progress, total: 3, message: `step ${progress}` })));
  });

  it("relays the progress of an MCP server it serves through an MCPToolset", async () => {
    const everything = new MCPToolset({ connection: { command: process.execPath, args: [referenceServer("everything")], stderr: "ignore" }, toolFilter: ["trigger-long-running-operation"] });
    const server = createMcpServer({ tools: [everything] });
    const listener = await server.listen();
    cleanups.push(() => listener.close(), () => server.close());
    const client = await officialClient(listener.url);
    const updates: { progress: number; total?: number }[] = [];
    const result = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (update) => updates.push(update) });
    expect(result.isError).toBeFalsy();
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.slice(0, 2)).toEqual([expect.objectContaining({ progress: 1, total: 3 }), expect.objectContaining({ progress: 2, total: 3 })]);
  });

  it("keeps a session per MCP session: state carries over within one client, not across clients", async () => {
    const { url } = await serveOverHttp();
    const first = await officialClient(url);
    const second = await officialClient(url);
    expect(jsonText(await first.callTool({ name: "count", arguments: {} }))).toEqual({ counter: 1 });
    expect(jsonText(await first.callTool({ name: "count", arguments: {} }))).toEqual({ counter: 2 });
    expect(jsonText(await second.callTool({ name: "count", arguments: {} }))).toEqual({ counter: 1 });
  });

  it("serves an agent as one tool that continues its conversation within the MCP session", async () => {
    const client = await officialClient((await serveOverHttp()).url);
    const first = await client.callTool({ name: "echo_agent", arguments: { request: "hello" } });
    expect(first.structuredContent).toEqual({ result: 'You said "hello" (turn 1)' });
    const second = await client.callTool({ name: "echo_agent", arguments: { request: "again" } });
    expect(second.structuredContent).toEqual({ result: 'You said "again" (turn 2)' });
  });

  it("refuses HTTP requests that name a host other than the allowed ones (DNS rebinding)", async () => {
    const { url } = await serveOverHttp();
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const post = (headers: Record<string, string>) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(initialize) });
    expect((await post({ origin: "http://evil.example.com" })).status).toBe(403);
    const accepted = await post({});
    expect(accepted.status).toBe(200);
    await accepted.body?.cancel();
  });

  it("serves over stdio to a client that starts it", async () => {
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", new URL("./fixtures/serve-stdio.ts", import.meta.url).pathname], stderr: "ignore" }),
    );
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("get_weather_report");
    expect(jsonText(await client.callTool({ name: "get_weather_report", arguments: { city: "Oslo" } }))).toEqual({ status: "success", report: "Sunny in Oslo" });
  });
});

describe("serveAgentModule", () => {
  it("serves the rootAgent export of a module over Streamable HTTP", async () => {
    const { server, listener } = await serveAgentModule({ modulePath: new URL("./fixtures/agent-module.ts", import.meta.url).pathname, http: { port: 0 } });
    cleanups.push(() => listener!.close(), () => server.close());
    const client = await officialClient(listener!.url);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo_agent"]);
    expect((await client.callTool({ name: "echo_agent", arguments: { request: "hi" } })).structuredContent).toEqual({ result: 'You said "hi" (turn 1)' });
  });

  it("says what to export when the module has no agent, and which export is not one when named", async () => {
    const modulePath = new URL("./fixtures/served-tools.ts", import.meta.url).pathname;
    await expect(serveAgentModule({ modulePath, http: { port: 0 } })).rejects.toSatisfy(
      (error: Error) => isToolsmithError(error) && error.code === "NO_ROOT_AGENT" && error.message.includes("exports neither an App nor rootAgent. Add `export const rootAgent"),
    );
    await expect(serveAgentModule({ modulePath, exportName: "missing", http: { port: 0 } })).rejects.toSatisfy(
      (error: Error) => isToolsmithError(error) && error.code === "NO_AGENT_EXPORT" && error.message.endsWith('has no agent or App exported as "missing". Name the export that holds the root agent or its App.'),
    );
  });
});

describe("MCPToolset against toolsmith's own MCP server", () => {
  it("refreshes its cached tool list when the server announces a change", async () => {
    const served: Tool[] = [new FunctionTool({ name: "first", description: "First.", execute: () => "one" })];
    const toolset: Toolset = { getTools: async () => [...served], close: async () => undefined };
    const server = createMcpServer({ tools: [toolset] });
    const listener = await server.listen();
    const client = new MCPToolset({ connection: { type: "http", url: listener.url } });
    cleanups.push(() => listener.close(), () => client.close());
    const context = await createReadonlyContext();

    const before = await client.getTools(context);
    expect(before.map((tool) => tool.name)).toEqual(["first"]);
    served.push(new FunctionTool({ name: "second", description: "Second.", execute: () => "two" }));
    expect((await client.getTools(context))[0]).toBe(before[0]); // cached: the server was not asked again

    await server.notifyToolListChanged();
    let names: string[] = [];
    for (let attempt = 0; attempt < 100 && names.length < 2; attempt++) {
      names = (await client.getTools(context)).map((tool) => tool.name);
      if (names.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(names).toEqual(["first", "second"]);
  });

  /**
   * Served tools behind an HTTP server that records each request's MCP session and `Authorization` header, and a
   * toolset whose header function sends a bearer token per user (`user:name` in the state).
   */
  async function servedWithUserHeaders(): Promise<{ toolset: MCPToolset; requests: { session: string | undefined; authorization: string | undefined }[] }> {
    const server = createMcpServer({ tools: servedTools() });
    const requests: { session: string | undefined; authorization: string | undefined }[] = [];
    const http = createServer((request, response) => {
      const session = request.headers["mcp-session-id"];
      requests.push({ session: typeof session === "string" ? session : undefined, authorization: request.headers.authorization });
      void server.handleHttpRequest(request, response);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    const toolset = new MCPToolset({
      connection: { type: "http", url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, headers: (context) => ({ authorization: `Bearer token-of-${context.state.get("user:name") ?? "nobody"}` }) },
    });
    cleanups.push(() => toolset.close(), () => server.close());
    return { toolset, requests };
  }

  it("sends headers computed from each call's context", async () => {
    const { toolset, requests } = await servedWithUserHeaders();
    const shout = (await toolset.getTools(await createReadonlyContext())).find((tool) => tool.name === "shout")!;
    const seen = () => requests.splice(0).map((request) => request.authorization);

    seen();
    await shout.run({ text: "a" }, await createToolContext({ state: { "user:name": "ada" } }));
    expect(seen()).toContain("Bearer token-of-ada");
    await shout.run({ text: "b" }, await createToolContext({ state: { "user:name": "grace" } }));
    const forGrace = seen();
    expect(forGrace).toEqual(expect.arrayContaining(["Bearer token-of-grace"]));
    expect(forGrace).not.toContain("Bearer token-of-ada");
  });

  it("opens one MCP session per set of computed headers, so each user's requests go on a session that user opened", async () => {
    const { toolset, requests } = await servedWithUserHeaders();
    const users = ["ada", "grace", "ada", "grace"];
    const contexts = await Promise.all(users.map((name) => createToolContext({ state: { "user:name": name } })));
    const shouts = await Promise.all(contexts.map(async (context) => (await toolset.getTools(context)).find((tool) => tool.name === "shout")!));
    expect(await Promise.all(shouts.map((shout, index) => shout.run({ text: users[index]! }, contexts[index]!)))).toEqual(users.map((name) => ({ text: name.toUpperCase() })));

    const usersBySession = new Map<string, Set<string | undefined>>();
    for (const { session, authorization } of requests) if (session) usersBySession.set(session, (usersBySession.get(session) ?? new Set()).add(authorization));
    expect([...usersBySession.values()].map((seen) => [...seen]).sort()).toEqual([["Bearer token-of-ada"], ["Bearer token-of-grace"]]);
  });
});

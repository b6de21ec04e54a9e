import { afterEach, describe, expect, it } from "vitest";
import { MCPToolset } from "../../src/mcp/index.js";
import { startChildServer, type ChildServer } from "../support/child-server.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { referenceServer } from "./server-paths.js";

const everything = referenceServer("everything");
const started: { servers: ChildServer[]; toolsets: MCPToolset[] } = { servers: [], toolsets: [] };

async function startEverything(mode: "streamableHttp" | "sse", port?: number) {
  const server = await startChildServer({ args: [everything, mode], ready: /listening on port|running on port/i, port });
  started.servers.push(server);
  return server;
}

async function toolNamed(toolset: MCPToolset, name: string) {
  const tool = (await toolset.getTools(await createReadonlyContext())).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

afterEach(async () => {
  await Promise.all(started.toolsets.splice(0).map((toolset) => toolset.close()));
  await Promise.all(started.servers.splice(0).map((server) => server.stop()));
});

describe.each([
  ["Streamable HTTP", "streamableHttp", "http", "/mcp"],
  ["SSE", "sse", "sse", "/sse"],
] as const)("MCPToolset over %s (server-everything)", (_label, mode, type, path) => {
  it("lists and calls tools, with text, structured content and images", async () => {
    const server = await startEverything(mode);
    const toolset = new MCPToolset({ connection: { type, url: `http://127.0.0.1:${server.port}${path}` } });
    started.toolsets.push(toolset);
    const context = await createToolContext();
    expect(await (await toolNamed(toolset, "echo")).run({ message: "hi" }, context)).toEqual({ text: "Echo: hi" });
    const weather = (await (await toolNamed(toolset, "get-structured-content")).run({ location: "New York" }, context)) as Record<string, unknown>;
    expect(weather.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    const image = (await (await toolNamed(toolset, "get-tiny-image")).run({}, context)) as Record<string, unknown>;
    expect(image.media).toEqual([{ mimeType: "image/png", data: expect.any(String) }]);
  });

  it("reconnects when the server restarts between two calls", async () => {
    const first = await startEverything(mode);
    const toolset = new MCPToolset({ connection: { type, url: `http://127.0.0.1:${first.port}${path}` } });
    started.toolsets.push(toolset);
    const echo = await toolNamed(toolset, "echo");
    expect(await echo.run({ message: "before" }, await createToolContext())).toEqual({ text: "Echo: before" });
    await first.stop();
    await startEverything(mode, first.port);
    expect(await echo.run({ message: "after" }, await createToolContext())).toEqual({ text: "Echo: after" });
  });
});

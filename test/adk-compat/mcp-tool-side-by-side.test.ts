import * as adk from "@google/adk";
import { afterEach, describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { MCPSessionManager, MCPTool, MCPToolset, McpTool } from "../../src/mcp/index.js";
import { referenceServer } from "../mcp/server-paths.js";

/**
 * ADK's `MCPTool`, on `@google/adk` 2.0 and on toolsmith (`toolsmith/mcp`, where it is the same class as `McpTool`):
 * what a program sees of the tools an `MCPToolset` gives for the MCP reference server `everything`.
 */
const toolsets: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const toolset of toolsets.splice(0)) await toolset.close();
});

const params = { type: "StdioConnectionParams" as const, serverParams: { command: process.execPath, args: [referenceServer("everything"), "stdio"], stderr: "ignore" as const } };

/** What a program reads of the toolset's tools: class checks, names, and the declared name. */
async function toolsSeen(framework: "adk" | "toolsmith", prefix?: string) {
  const [Toolset, Tool, Base] = framework === "adk" ? [adk.MCPToolset, adk.MCPTool, adk.BaseTool] : [MCPToolset, MCPTool, toolsmith.BaseTool];
  const toolset = new Toolset(params as never, ["echo", ...(prefix ? [`${prefix}_echo`] : [])], prefix);
  toolsets.push(toolset);
  // As ADK's documentation calls it, with no context.
  const tools = (await toolset.getTools()) as unknown as Array<{ name: string; _getDeclaration(): { name: string } }>;
  return tools.map((tool) => ({ name: tool.name, declared: tool._getDeclaration().name, isMcpTool: tool instanceof Tool, isBaseTool: tool instanceof Base }));
}

describe("MCPTool, side by side with @google/adk 2.0", () => {
  it("is the class of the tools a toolset gives, a BaseTool with the server's name and declaration", async () => {
    const [onAdk, onToolsmith] = [await toolsSeen("adk"), await toolsSeen("toolsmith")];
    expect(onToolsmith).toEqual(onAdk);
    expect(onToolsmith).toEqual([{ name: "echo", declared: "echo", isMcpTool: true, isBaseTool: true }]);
    // ADK's name and toolsmith's are one class.
    expect(MCPTool).toBe(McpTool);
  });

  it("with a prefix, ADK's tools are MCPTools; toolsmith's are renamed copies, BaseTools that forward to one (difference)", async () => {
    const [onAdk, onToolsmith] = [await toolsSeen("adk", "everything"), await toolsSeen("toolsmith", "everything")];
    expect(onAdk).toEqual([{ name: "everything_echo", declared: "everything_echo", isMcpTool: true, isBaseTool: true }]);
    expect(onToolsmith).toEqual([{ name: "everything_echo", declared: "everything_echo", isMcpTool: false, isBaseTool: true }]);
  });
});

describe("MCPSessionManager, side by side with @google/adk 2.0", () => {
  it("makes connected clients of the server, lists them while open, and closes the ones it made", async () => {
    const seen: Record<string, unknown> = {};
    for (const [name, Manager] of [
      ["@google/adk", adk.MCPSessionManager],
      ["toolsmith", MCPSessionManager],
    ] as const) {
      const manager = new Manager(params as never);
      const first = await manager.createSession();
      const second = await manager.createSession();
      const tools = (await first.listTools()).tools.map((tool) => tool.name).sort();
      const echoed = await second.callTool({ name: "echo", arguments: { message: "hi" } });
      const open = manager.getActiveSessions().length;
      await manager.closeSession(first);
      await manager.closeSession(first);
      const afterOne = manager.getActiveSessions();
      await manager.closeSession(second);
      seen[name] = { distinct: first !== second, hasEcho: tools.includes("echo"), echoed: JSON.stringify(echoed.content), open, afterOne: afterOne.length, secondLeft: afterOne[0] === second, afterAll: manager.getActiveSessions().length };
    }
    console.log(JSON.stringify(seen));
    expect(seen.toolsmith).toEqual(seen["@google/adk"]);
    expect(seen.toolsmith).toMatchObject({ distinct: true, hasEcho: true, open: 2, afterOne: 1, secondLeft: true, afterAll: 0 });
  });

  it("says it could not connect, with ADK's words first and what to check", async () => {
    const broken = { type: "StdioConnectionParams" as const, serverParams: { command: "/nonexistent/mcp-server", args: [], stderr: "ignore" as const } };
    const theirs = await new adk.MCPSessionManager(broken as never).createSession().catch((error: Error) => error);
    const ours = await new MCPSessionManager(broken as never).createSession().catch((error: toolsmith.ToolsmithError) => error);
    console.log(`ADK: ${(theirs as Error).message}\ntoolsmith: ${(ours as Error).message}`);
    expect((theirs as Error).message).toMatch(/^Failed to create MCP session: /);
    expect(ours).toMatchObject({ code: "MCP_CONNECTION_FAILED", message: expect.stringMatching(/^Failed to create MCP session: .*Check the server's command or URL, and that it speaks MCP\.$/) });
  });
});

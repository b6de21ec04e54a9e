import * as adk from "@google/adk";
import { afterEach, describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { MCPTool, MCPToolset, McpTool } from "../../src/mcp/index.js";
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
  // As ADK's documentation calls it, with no context (toolsmith's type asks for one; it works without).
  const tools = (await (toolset as unknown as { getTools(): Promise<unknown> }).getTools()) as Array<{ name: string; _getDeclaration(): { name: string } }>;
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

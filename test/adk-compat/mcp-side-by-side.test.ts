import { afterEach, describe, expect, it } from "vitest";
import { MCPToolset } from "../../src/mcp/index.js";
import { referenceServer } from "../mcp/server-paths.js";
import { runOnBoth, runTurn, text, type Framework, type RunRecord } from "./side-by-side.js";

/**
 * An ADK program's MCP toolset, `new MCPToolset({ type: "StdioConnectionParams", serverParams }, toolFilter)`, on
 * `@google/adk` 2.0 and on toolsmith (from `toolsmith/mcp`: the one import that changes), against the MCP reference
 * server `everything` from npm. Both offer the model the same tools; what the model reads back differs on purpose
 * (docs/adk-compat.md, "MCP tools: what the model is offered and reads back"): ADK hands it the raw
 * `CallToolResult`, toolsmith the same content in the shape its README documents.
 */
const toolsets: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const toolset of toolsets.splice(0)) await toolset.close();
});

function everythingToolset(f: Framework, toolFilter: string[]) {
  // ADK exports MCPToolset from its root; toolsmith from toolsmith/mcp, so that a program without MCP loads no MCP SDK.
  const Toolset = f.MCPToolset ?? MCPToolset;
  const toolset = new Toolset({ type: "StdioConnectionParams", serverParams: { command: process.execPath, args: [referenceServer("everything"), "stdio"], stderr: "ignore" } }, toolFilter);
  toolsets.push(toolset);
  return toolset;
}

const callOne = (name: string, args: Record<string, unknown>) => ({ content: { role: "model", parts: [{ functionCall: { name, args } }] } });

/** The one call's result as each framework's model read it in its second request, and what followed it there. */
async function resultsOf(name: string, args: Record<string, unknown>) {
  const { adk, toolsmith } = await runOnBoth([callOne(name, args), text("done")], async (f, model) => runTurn(f, new f.LlmAgent({ name: "caller", model, tools: [everythingToolset(f, [name])] }), "go"));
  const responseIn = (record: RunRecord) => {
    const contents = record.requests[1]!.contents as Array<{ parts: Array<{ functionResponse?: { response: Record<string, unknown> } }> }>;
    const at = contents.findIndex((content) => content.parts.some((part) => part.functionResponse));
    return { response: contents[at]!.parts[0]!.functionResponse!.response, after: contents.slice(at + 1) };
  };
  return { adk: responseIn(adk), toolsmith: responseIn(toolsmith), records: { adk, toolsmith } };
}

type Block = { type: string; text?: string; data?: string; mimeType?: string; resource?: Record<string, unknown>; uri?: string; name?: string; description?: string };
const blocksOf = (response: Record<string, unknown>) => response.content as Block[];
const textsOf = (blocks: Block[]) => blocks.filter((block) => block.type === "text").map((block) => block.text);

describe("MCPToolset over stdio, side by side with @google/adk 2.0", () => {
  it("declares what a tool answers (its outputSchema) as the declaration's response, as ADK does", async () => {
    const responses = async (f: Framework) => {
      const [tool] = await everythingToolset(f, ["get-structured-content"]).getTools();
      const { response } = (tool as { _getDeclaration(): { response?: { properties: Record<string, { description?: string }>; required?: string[] } } })._getDeclaration();
      return { properties: Object.fromEntries(Object.entries(response!.properties).map(([key, { description }]) => [key, description])), required: response!.required };
    };
    const { adk, toolsmith } = await runOnBoth([], async (f) => ({ runner: undefined, events: [], output: await responses(f) }));
    expect(toolsmith.output).toEqual(adk.output);
    expect(Object.keys((toolsmith.output as { properties: object }).properties).sort()).toEqual(["conditions", "humidity", "temperature"]);
  });

  it("offers the model the same tools: names, descriptions, parameters and required ones", async () => {
    const declarations = async (f: Framework) => {
      const tools = await everythingToolset(f, ["echo", "get-sum", "get-structured-content", "get-tiny-image"]).getTools();
      return tools
        .map((tool: { _getDeclaration(): { name: string; description: string; parameters: { properties: Record<string, { description?: string; enum?: unknown }>; required?: string[] } } }) => {
          const { name, description, parameters } = tool._getDeclaration();
          // ADK writes Gemini's type names (STRING), toolsmith the server's JSON Schema (string): compared without them.
          const properties = Object.fromEntries(Object.entries(parameters.properties).map(([key, { description, enum: values }]) => [key, { description, enum: values }]));
          return { name, description, properties, required: parameters.required ?? [] };
        })
        .sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name));
    };
    const { adk, toolsmith } = await runOnBoth([], async (f) => ({ runner: undefined, events: [], output: await declarations(f) }));
    expect(toolsmith.output).toEqual(adk.output);
    expect((toolsmith.output as Array<{ name: string }>).map((declaration) => declaration.name)).toEqual(["echo", "get-structured-content", "get-sum", "get-tiny-image"]);
  });

  it("gives the model a text result's text: ADK as the raw content blocks, toolsmith as one text", async () => {
    const { adk, toolsmith, records } = await resultsOf("echo", { message: "hello" });
    expect(adk.response).toEqual({ content: [{ type: "text", text: "Echo: hello" }] });
    expect(toolsmith.response).toEqual({ text: textsOf(blocksOf(adk.response)).join("\n\n") });
    // The turn goes on the same way on both.
    expect(records.toolsmith.events.at(-1)).toEqual(records.adk.events.at(-1));
  });

  it("gives the model structured content as an object once: ADK also keeps the server's JSON copy of it as text", async () => {
    const { adk, toolsmith } = await resultsOf("get-structured-content", { location: "New York" });
    const structured = adk.response.structuredContent as Record<string, unknown>;
    expect(textsOf(blocksOf(adk.response))).toEqual([JSON.stringify(structured)]);
    expect(toolsmith.response).toEqual({ structuredContent: structured });
  });

  it("shows the model an image as an image: ADK passes its bytes as base64 inside the JSON the model reads", async () => {
    const { adk, toolsmith } = await resultsOf("get-tiny-image", {});
    const blocks = blocksOf(adk.response);
    const image = blocks.find((block) => block.type === "image")!;
    expect(image.data!.length).toBeGreaterThan(1_000);
    expect(toolsmith.response).toEqual({ text: textsOf(blocks).join("\n\n"), media: [{ mimeType: image.mimeType, shownAs: "inline part in the next user message" }] });
    // The bytes follow the tool's response as an inline part of a user message, where the model sees an image.
    const [shown] = toolsmith.after as Array<{ role: string; parts: Array<{ inlineData?: { mimeType: string; data: string } }> }>;
    expect(shown!.role).toBe("user");
    expect(shown!.parts.find((part) => part.inlineData)!.inlineData).toEqual({ mimeType: image.mimeType, data: image.data });
    expect(adk.after).toEqual([]);
  });

  it("gives the model embedded resources and resource links as a list of resources beside the text", async () => {
    const embedded = await resultsOf("get-resource-reference", { resourceType: "Text", resourceId: 1 });
    const embeddedBlocks = blocksOf(embedded.adk.response);
    // Each server process makes the resource with its own clock time in its text.
    const withoutTimes = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/\d{1,2}:\d{2}:\d{2}\s?[AP]M/g, "<time>"));
    expect(withoutTimes(embedded.toolsmith.response)).toEqual(withoutTimes({ text: textsOf(embeddedBlocks).join("\n\n"), resources: [embeddedBlocks.find((block) => block.type === "resource")!.resource] }));

    const links = await resultsOf("get-resource-links", { count: 2 });
    const linkBlocks = blocksOf(links.adk.response);
    expect(links.toolsmith.response).toEqual({
      text: textsOf(linkBlocks).join("\n\n"),
      resources: linkBlocks.filter((block) => block.type === "resource_link").map(({ uri, name, mimeType, description }) => ({ uri, name, mimeType, description })),
    });
  });

  it("checks the model's arguments before the server sees them: ADK passes the server's refusal on as isError", async () => {
    const { adk, toolsmith } = await resultsOf("get-sum", { a: "two", b: 3 });
    expect(adk.response.isError).toBe(true);
    expect(textsOf(blocksOf(adk.response))[0]).toContain("Invalid arguments for tool get-sum");
    expect(toolsmith.response).toEqual({
      status: "error",
      error: 'Invalid arguments for tool "get-sum": a: must be number. Call the tool again with arguments that match its schema.',
      invalidArguments: [{ field: "a", problem: "must be number" }],
    });
  });
});

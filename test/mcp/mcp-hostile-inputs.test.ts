import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FunctionTool, getFunctionResponses, LlmAgent, Runner } from "../../src/index.js";
import { closeResponseStream, createMcpServer, isServedOverMcp, LoadMcpResourceTool, logToClient, MCPToolset, type ToolsmithMcpServer } from "../../src/mcp/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";
import { getLogger, resetLogger, setLogger } from "../../src/logging/logger.js";
import { MAX_LISTING_PAGES } from "../../src/mcp/mcp-session.js";

// What a hostile or careless client sends to toolsmith's MCP server, and what a hostile server sends back.
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const files = new Map([["a.txt", "alpha"]]);
let server: ToolsmithMcpServer;
let url = "";
let close: () => Promise<void>;
let client: Client;

beforeAll(async () => {
  server = createMcpServer({
    resources: [
      { uri: "files://index", name: "index", read: () => [...files.keys()].join("\n") },
      { uri: "files://logo", name: "logo", mimeType: "image/png", read: () => ({ blob: PIXEL }) },
      { uri: "files://archive", name: "archive", mimeType: "application/zip", read: () => new Uint8Array([80, 75, 3, 4]) },
    ],
    resourceTemplates: [{ uriTemplate: "files://by-name/{name}", name: "file", read: (_uri, { name }) => files.get(name ?? "") ?? `No file named ${JSON.stringify(name)}.` }],
    prompts: [{ name: "greet", arguments: [{ name: "who", required: true }], messages: ({ who }) => `Say hello to ${who}.` }],
  });
  ({ url, close } = await server.listen());
  client = new Client({ name: "attacker", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
});

afterAll(async () => {
  await client.close();
  await close();
  await server.close();
});

describe("toolsmith's MCP server under hostile requests", () => {
  it("answers any resource URI with its contents or error -32002, and keeps serving (fuzzed)", async () => {
    let runs = 0;
    const outcomes = { found: 0, notFound: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string().map((tail) => `files://by-name/${tail}`), fc.webUrl()), async (uri) => {
        runs++;
        try {
          const result = await client.readResource({ uri });
          expect(result.contents).toHaveLength(1);
          outcomes.found++;
        } catch (error) {
          expect(error).toMatchObject({ code: expect.any(Number) });
          outcomes.notFound++;
        }
      }),
      { numRuns: 150 },
    );
    console.log(`hostile resource URIs: ${runs} sent, ${outcomes.found} read, ${outcomes.notFound} refused; the server still answers`);
    expect((await client.readResource({ uri: "files://index" })).contents[0]).toMatchObject({ text: "a.txt" });
  });

  it("passes a template variable to read as text only: path tricks reach no file", async () => {
    // A variable never spans a "/", so "../a.txt" matches no template and is refused; the others reach read as plain text.
    await expect(client.readResource({ uri: "files://by-name/../a.txt" })).rejects.toMatchObject({ code: -32002 });
    for (const name of ["..%2F..%2Fetc%2Fpasswd", "a.txt%00", "%E2%80%AEtxt.a"]) {
      const [contents] = (await client.readResource({ uri: `files://by-name/${name}` })).contents;
      expect(contents).toMatchObject({ text: expect.stringMatching(/^No file named /) });
    }
    expect((await client.readResource({ uri: "files://by-name/a.txt" })).contents[0]).toMatchObject({ text: "alpha" });
  });

  it("refuses prompts with missing or odd arguments without failing, and with arguments of any text fills them in verbatim (fuzzed)", async () => {
    await expect(client.getPrompt({ name: "greet", arguments: { whom: "x" } })).rejects.toThrow('Prompt "greet" needs the arguments who.');
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.string(), async (who) => {
        runs++;
        const { messages } = await client.getPrompt({ name: "greet", arguments: { who } });
        expect(messages).toEqual([{ role: "user", content: { type: "text", text: `Say hello to ${who}.` } }]);
      }),
      { numRuns: 100 },
    );
    console.log(`hostile prompt arguments: ${runs} filled in verbatim`);
  });

  it("answers completion for names it does not know with an empty list", async () => {
    expect((await client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } })).completion.values).toEqual([]);
    expect((await client.complete({ ref: { type: "ref/resource", uri: "files://by-name/{name}" }, argument: { name: "name", value: "a" } })).completion.values).toEqual([]);
  });
});

describe("LoadMcpResourceTool with what a server returns", () => {
  it("gives text as text, images as media the model sees, other bytes as base64 with their type, and names the missing ones", async () => {
    const toolset = new MCPToolset({ connection: { type: "http", url } });
    try {
      const model = new ScriptedModel([functionCallsResponse({ name: "load_mcp_resource", args: { resource_names: ["index", "logo", "archive", "ghost"] } }), textResponse("ok")]);
      const runner = new Runner({ appName: "r", agent: new LlmAgent({ name: "reader", model, tools: [new LoadMcpResourceTool(toolset)] }) });
      const session = await runner.sessionService.createSession({ appName: "r", userId: "u" });
      const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("load them") }));
      const response = getFunctionResponses(events[1]!.content)[0]!.response!;
      expect(response.resources).toEqual([
        { name: "index", uri: "files://index", mimeType: "text/plain", text: "a.txt" },
        { name: "archive", uri: "files://archive", mimeType: "application/zip", blob: Buffer.from([80, 75, 3, 4]).toString("base64") },
      ]);
      expect(response.media).toEqual([{ mimeType: "image/png", data: PIXEL, displayName: "logo" }]);
      expect(response.failed).toEqual(['ghost: The MCP server has no resource named "ghost". Its resources: index, logo, archive.']);
      // The model's next request carries the image as an inline part, and only a note in the response.
      const next = model.requests[1]!;
      expect(next.contents.some((content) => content.parts?.some((part) => part.inlineData?.data === PIXEL))).toBe(true);
      expect(JSON.stringify(next.contents.flatMap((content) => content.parts ?? []).filter((part) => part.functionResponse))).not.toContain(PIXEL);
      await runner.close();
    } finally {
      await toolset.close();
    }
  });

  it("answers an error result when no resource could be loaded", async () => {
    const toolset = new MCPToolset({ connection: { type: "http", url } });
    try {
      const result = await new LoadMcpResourceTool(toolset).run({ resource_names: ["ghost"] });
      expect(result).toEqual({ status: "error", error: 'No resource could be loaded. ghost: The MCP server has no resource named "ghost". Its resources: index, logo, archive.' });
    } finally {
      await toolset.close();
    }
  });
});

describe("served-tool helpers outside an MCP server", () => {
  it("logging and closing the stream do nothing, and isServedOverMcp says so", async () => {
    const context = await createToolContext();
    expect(isServedOverMcp(context)).toBe(false);
    expect(() => logToClient(context, "error", "nobody listens")).not.toThrow();
    expect(() => closeResponseStream(context)).not.toThrow();
    const tool = new FunctionTool({ name: "probe", description: "Says whether it is served.", execute: (_args, toolContext) => ({ served: isServedOverMcp(toolContext) }) });
    expect(await tool.run({}, context)).toEqual({ served: false });
  });
});

describe("a server whose tool list never ends", () => {
  it("is read for a thousand pages, and the cut is said in toolsmith's log, not made in silence", async () => {
    const warnings: string[] = [];
    setLogger({ ...getLogger(), warn: (...args: unknown[]) => void warnings.push(args.join(" ")) });
    const toolset = new MCPToolset({ connection: { command: process.execPath, args: ["--import", "tsx", new URL("./fixtures/paging-forever-server.ts", import.meta.url).pathname], stderr: "ignore" } });
    try {
      const tools = await toolset.getTools(await createReadonlyContext());
      expect(tools).toHaveLength(MAX_LISTING_PAGES);
      expect(tools.at(-1)!.name).toBe(`tool_${MAX_LISTING_PAGES - 1}`);
      expect(warnings).toEqual([`An MCP server's tool list had more than ${MAX_LISTING_PAGES} pages; the first ${MAX_LISTING_PAGES} items are used and the rest left out. The server may be paging without end.`]);
    } finally {
      resetLogger();
      await toolset.close();
    }
  });
});

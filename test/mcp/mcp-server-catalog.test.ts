import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, InMemoryArtifactService, LlmAgent } from "../../src/index.js";
import { createMcpServer, elicitFromClient, logToClient, sampleFromClient, type McpServerOptions } from "../../src/mcp/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { createToolContext } from "../support/tool-context.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

async function serve(options: McpServerOptions) {
  const server = createMcpServer(options);
  const listener = await server.listen();
  cleanups.push(() => listener.close(), () => server.close());
  return { server, url: listener.url };
}

async function connect(url: string, capabilities: ConstructorParameters<typeof Client>[1] = {}) {
  const client = new Client({ name: "test-client", version: "1.0.0" }, capabilities);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

describe("tool results sent once and whole", () => {
  const chart = new FunctionTool({
    name: "chart",
    description: "Draws a chart and says what it shows.",
    execute: () => ({ text: "Sales by month", media: [{ mimeType: "image/png", data: PIXEL }], months: 12, peak: "March" }),
  });
  const weather = new FunctionTool({ name: "weather", description: "Weather.", execute: () => ({ temperature: 21, conditions: "sunny" }) });

  it("sends structuredContent with one JSON text copy only for a tool with an output schema", async () => {
    const { url } = await serve({ tools: [weather], outputSchemas: { weather: z.object({ temperature: z.number(), conditions: z.string() }) } });
    const client = await connect(url);
    const [listed] = (await client.listTools()).tools;
    expect(listed!.outputSchema).toMatchObject({ type: "object", properties: { temperature: { type: "number" } } });
    const result = await client.callTool({ name: "weather", arguments: {} });
    expect(result.structuredContent).toEqual({ temperature: 21, conditions: "sunny" });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ temperature: 21, conditions: "sunny" }) }]);
  });

  it("sends images as image content and keeps the data returned beside them, never base64 in structured data", async () => {
    const { url } = await serve({ tools: [chart] });
    const client = await connect(url);
    const result = await client.callTool({ name: "chart", arguments: {} });
    expect(result.content).toEqual([
      { type: "text", text: "Sales by month" },
      { type: "image", mimeType: "image/png", data: PIXEL },
      { type: "text", text: JSON.stringify({ months: 12, peak: "March" }) },
    ]);
    expect(result.structuredContent).toBeUndefined();
  });

  it("with an output schema, the data beside an image is structuredContent without the image bytes", async () => {
    const { url } = await serve({ tools: [chart], outputSchemas: { chart: { type: "object", properties: { months: { type: "number" }, peak: { type: "string" } } } } });
    const result = await (await connect(url)).callTool({ name: "chart", arguments: {} });
    expect(result.structuredContent).toEqual({ months: 12, peak: "March" });
    expect(JSON.stringify(result.structuredContent)).not.toContain(PIXEL);
    expect((result.content as { type: string }[]).map((block) => block.type)).toEqual(["text", "image", "text"]);
  });
});

describe("resources served by createMcpServer", () => {
  const notes = new Map([["1", "Buy milk"], ["2", "Call Ada"]]);
  const catalog: McpServerOptions = {
    resources: [
      { uri: "notes://index", name: "index", description: "All note ids.", mimeType: "application/json", read: () => JSON.stringify([...notes.keys()]) },
      { uri: "notes://logo", name: "logo", mimeType: "image/png", read: () => Buffer.from(PIXEL, "base64") },
      { uri: "state://counter", name: "counter", read: ({ session }) => String(session.state.counter ?? 0) },
    ],
    resourceTemplates: [
      {
        uriTemplate: "notes://{id}",
        name: "note",
        mimeType: "text/plain",
        read: (_uri, { id }) => notes.get(id!) ?? `No note ${id}.`,
        complete: { id: (value) => [...notes.keys()].filter((id) => id.startsWith(value)) },
      },
    ],
  };

  it("lists, reads (text, bytes, templates, read-only session state) and completes template variables", async () => {
    const counter = new FunctionTool({ name: "bump", description: "Counts.", execute: (_args, context) => context.state.set("counter", 5) });
    const { url } = await serve({ ...catalog, tools: [counter] });
    const client = await connect(url);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["notes://index", "notes://logo", "state://counter"]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: "notes://{id}", name: "note", mimeType: "text/plain" }]);
    expect((await client.readResource({ uri: "notes://index" })).contents).toEqual([{ uri: "notes://index", mimeType: "application/json", text: '["1","2"]' }]);
    expect((await client.readResource({ uri: "notes://logo" })).contents).toEqual([{ uri: "notes://logo", mimeType: "image/png", blob: PIXEL }]);
    expect((await client.readResource({ uri: "notes://2" })).contents).toEqual([{ uri: "notes://2", mimeType: "text/plain", text: "Call Ada" }]);
    await client.callTool({ name: "bump", arguments: {} });
    expect((await client.readResource({ uri: "state://counter" })).contents[0]).toMatchObject({ text: "5" });
    const completion = await client.complete({ ref: { type: "ref/resource", uri: "notes://{id}" }, argument: { name: "id", value: "2" } });
    expect(completion.completion.values).toEqual(["2"]);
  });

  it("answers an unknown resource with error -32002 and a message that says what to do", async () => {
    const client = await connect((await serve(catalog)).url);
    await expect(client.readResource({ uri: "nothing://here" })).rejects.toMatchObject({
      code: -32002,
      message: "MCP error -32002: Resource nothing://here does not exist. List the resources and resource templates to see what this server offers.",
    });
  });

  it("tells only the clients subscribed to a resource that it changed, until they unsubscribe", async () => {
    const { server, url } = await serve(catalog);
    const subscribed = await connect(url);
    const other = await connect(url);
    const seen: Record<string, string[]> = { subscribed: [], other: [] };
    subscribed.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void seen.subscribed!.push(notification.params.uri));
    other.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void seen.other!.push(notification.params.uri));
    await subscribed.subscribeResource({ uri: "notes://index" });
    await server.notifyResourceUpdated("notes://index");
    await server.notifyResourceUpdated("notes://logo");
    await expect.poll(() => seen.subscribed).toEqual(["notes://index"]);
    await subscribed.unsubscribeResource({ uri: "notes://index" });
    await server.notifyResourceUpdated("notes://index");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual({ subscribed: ["notes://index"], other: [] });
  });

  it("serves the artifacts a served tool saved as artifact:/// resources of that MCP session", async () => {
    const save = new FunctionTool({
      name: "save_report",
      description: "Saves a report.",
      execute: async (_args, context) => ({ version: await context.saveArtifact("report.txt", { text: "Quarterly numbers" }) }),
    });
    const { url } = await serve({ tools: [save], artifactService: new InMemoryArtifactService() });
    const client = await connect(url);
    await client.callTool({ name: "save_report", arguments: {} });
    expect((await client.listResources()).resources).toEqual([expect.objectContaining({ uri: "artifact:///report.txt", name: "report.txt" })]);
    expect((await client.readResource({ uri: "artifact:///report.txt" })).contents).toEqual([{ uri: "artifact:///report.txt", mimeType: "text/plain", text: "Quarterly numbers" }]);
    const stranger = await connect(url);
    expect((await stranger.listResources()).resources).toEqual([]);
  });
});

describe("prompts served by createMcpServer", () => {
  const review = {
    name: "review",
    description: "Reviews code in a language.",
    arguments: [{ name: "language", required: true }, { name: "focus" }],
    messages: ({ language, focus }: Record<string, string>) => `Review this ${language} code${focus ? `, looking at ${focus}` : ""}.`,
    complete: { language: (value: string) => ["typescript", "python", "go"].filter((language) => language.startsWith(value)) },
  };

  it("lists prompts, agents' instructions among them, and fills them in with arguments", async () => {
    const planner = new LlmAgent({ name: "planner", description: "Plans.", model: new ScriptedModel([]), instruction: "Plan the user's week in three bullet points." });
    const client = await connect((await serve({ prompts: [review], agents: [planner] })).url);
    expect((await client.listPrompts()).prompts).toEqual([
      { name: "review", description: "Reviews code in a language.", arguments: [{ name: "language", required: true }, { name: "focus" }] },
      { name: "planner", description: 'The instructions of the agent "planner".' },
    ]);
    expect((await client.getPrompt({ name: "review", arguments: { language: "go", focus: "errors" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Review this go code, looking at errors." } },
    ]);
    expect((await client.getPrompt({ name: "planner" })).messages[0]!.content).toEqual({ type: "text", text: "Plan the user's week in three bullet points." });
    expect((await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "language", value: "py" } })).completion.values).toEqual(["python"]);
  });

  it("refuses a prompt without its required arguments, naming them, and an unknown prompt, naming the known ones", async () => {
    const client = await connect((await serve({ prompts: [review] })).url);
    await expect(client.getPrompt({ name: "review", arguments: {} })).rejects.toThrow('Prompt "review" needs the arguments language.');
    await expect(client.getPrompt({ name: "nope" })).rejects.toThrow('Prompt "nope" does not exist. Available prompts: review.');
  });
});

describe("served tools reaching the client: logging, sampling, elicitation", () => {
  const chatty = new FunctionTool({
    name: "chatty",
    description: "Logs at three levels.",
    execute: (_args, context) => {
      logToClient(context, "debug", "details");
      logToClient(context, "info", { step: 1 }, "importer");
      logToClient(context, "error", "disk almost full");
      return "done";
    },
  });
  const summarise = new FunctionTool({
    name: "summarise",
    description: "Summarises with the client's model.",
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }, context) => {
      const answer = await sampleFromClient(context, `Summarise: ${text}`);
      return answer.content.type === "text" ? answer.content.text : "";
    },
  });
  const book = new FunctionTool({
    name: "book",
    description: "Books a table after asking how many people.",
    execute: async (_args, context) => {
      const answer = await elicitFromClient(context, { message: "For how many people?", requestedSchema: { type: "object", properties: { people: { type: "integer" } }, required: ["people"] } });
      return answer.action === "accept" ? `Booked for ${String(answer.content?.people)}.` : `Not booked (${answer.action}).`;
    },
  });

  it("sends log messages at or above the level the client set", async () => {
    const client = await connect((await serve({ tools: [chatty] })).url);
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params));
    await client.setLoggingLevel("info");
    await client.callTool({ name: "chatty", arguments: {} });
    await expect.poll(() => logs.length).toBe(2);
    expect(logs).toEqual([{ level: "info", data: { step: 1 }, logger: "importer" }, { level: "error", data: "disk almost full" }]);
  });

  it("asks the client's model and the client's person through the tool context", async () => {
    const client = await connect((await serve({ tools: [summarise, book] })).url, { capabilities: { sampling: {}, elicitation: { form: {} } } });
    const asked: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      asked.push(request.params.messages);
      return { role: "assistant", content: { type: "text", text: "Short." }, model: "client-model" };
    });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { people: 4 } };
    });
    expect((await client.callTool({ name: "summarise", arguments: { text: "a long story" } })).content).toEqual([{ type: "text", text: "Short." }]);
    expect((await client.callTool({ name: "book", arguments: {} })).content).toEqual([{ type: "text", text: "Booked for 4." }]);
    expect(asked).toEqual([[{ role: "user", content: { type: "text", text: "Summarise: a long story" } }], "For how many people?"]);
  });

  it("answers with an error result when the client offered no sampling, and outside MCP tells the developer what to do", async () => {
    const client = await connect((await serve({ tools: [summarise] })).url);
    const result = await client.callTool({ name: "summarise", arguments: { text: "x" } });
    expect(result).toMatchObject({ isError: true, content: [{ text: 'Tool "summarise" failed: The MCP client did not offer sampling (asking its model), which tool "summarise" needs. Use a client that does, or a tool that does without.' }] });
    await expect(summarise.run({ text: "x" }, await createToolContext())).rejects.toThrow(
      "Sampling needs an MCP client: this tool was not called through toolsmith's MCP server. Serve it with createMcpServer, or check with isServedOverMcp(context) first.",
    );
  });
});

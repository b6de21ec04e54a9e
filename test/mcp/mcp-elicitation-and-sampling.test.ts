import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { FunctionTool, getFunctionResponses, InMemorySessionService, LlmAgent, REQUEST_CONFIRMATION, Runner, type Event } from "../../src/index.js";
import { createMcpServer, MCPToolset, sampleFromClient, type MCPToolsetOptions } from "../../src/mcp/index.js";
import { bookTableTool, PEOPLE_FORM } from "./fixtures/book-table-tool.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { createToolContext } from "../support/tool-context.js";
import { referenceServer } from "./server-paths.js";
import { tempDir } from "../support/temp-dir.js";

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What the served tools saw: how often each ran, and the answers book_table's question got. */
interface ServerLog {
  runs: Record<string, number>;
  booked: { runs: number; answers: ElicitResult[] };
}

/** toolsmith's own MCP server over Streamable HTTP, with tools that ask the client's person and model mid-call. */
async function serveAskingTools(): Promise<{ url: string; log: ServerLog }> {
  const log: ServerLog = { runs: {}, booked: { runs: 0, answers: [] } };
  const count = (name: string) => (log.runs[name] = (log.runs[name] ?? 0) + 1);
  const book = bookTableTool(log.booked);
  const summarise = new FunctionTool({
    name: "summarise",
    description: "Summarises with the client's model.",
    execute: async (_args, context) => {
      count("summarise");
      const answer = await sampleFromClient(context, { messages: [{ role: "user", content: { type: "text", text: "Summarise: the meeting ran long." } }], systemPrompt: "Be brief.", maxTokens: 50 });
      return `Summary (${answer.model}): ${answer.content.type === "text" ? answer.content.text : ""}`;
    },
  });
  const slow = new FunctionTool({
    name: "slow",
    description: "Takes a while.",
    execute: async () => {
      count("slow");
      await new Promise((resolve) => setTimeout(resolve, 400));
      return "slow done";
    },
  });
  // A server that asks the client's model again and again in one call: how many it got, and the refusal that stopped it.
  const greedy = new FunctionTool({
    name: "greedy",
    description: "Samples until refused.",
    execute: async (_args, context) => {
      let answered = 0;
      for (;;) {
        if (answered === 1000) return { answered, refused: null };
        try {
          await sampleFromClient(context, "again");
          answered += 1;
        } catch (error) {
          return { answered, refused: (error as Error).message };
        }
      }
    },
  });
  const server = createMcpServer({ tools: [book, summarise, slow, greedy] });
  const listener = await server.listen();
  cleanups.push(() => listener.close(), () => server.close());
  return { url: listener.url, log };
}

function remote(url: string, options: Omit<MCPToolsetOptions, "connection"> = {}): MCPToolset {
  const toolset = new MCPToolset({ connection: { type: "http", url }, ...options });
  cleanups.push(() => toolset.close());
  return toolset;
}

const sessionService = new InMemorySessionService();

async function startRun(agent: LlmAgent, text: string) {
  const runner = new Runner({ appName: "mcp", agent, sessionService });
  const session = await sessionService.createSession({ appName: "mcp", userId: "u1" });
  const events = await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage(text) }));
  return { runner, sessionId: session.id, events };
}

function confirmationRequest(events: readonly Event[]) {
  return events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION)?.functionCall;
}

function answer(runner: Runner, sessionId: string, requestId: string, response: Record<string, unknown>) {
  return collect(runner.runAsync({ userId: "u1", sessionId, newMessage: { role: "user", parts: [{ functionResponse: { id: requestId, name: REQUEST_CONFIRMATION, response } }] } }));
}

function responseText(events: readonly Event[], name: string): string {
  const response = events.flatMap((event) => getFunctionResponses(event.content)).find((candidate) => candidate.name === name && candidate.response?.status !== "paused");
  return JSON.stringify(response?.response ?? null);
}

describe("sampling answered by the calling agent's model", () => {
  it("asks the model of the agent whose tool call is running when no samplingModel is given", async () => {
    const { url, log } = await serveAskingTools();
    const model = new ScriptedModel([functionCallsResponse({ name: "summarise", args: {} }), textResponse("It ran long."), textResponse("Here is the summary.")], { name: "agent-model" });
    const { events } = await startRun(new LlmAgent({ name: "notes", model, tools: [remote(url)] }), "summarise the meeting");

    // The second request the agent's model got is the server's sampling request, with its system prompt and message.
    expect(model.requests[1]!.systemInstruction).toBe("Be brief.");
    expect(model.requests[1]!.contents[0]!.parts![0]!.text).toBe("Summarise: the meeting ran long.");
    expect(model.requests[1]!.functionDeclarations).toEqual([]);
    expect(responseText(events, "summarise")).toContain("Summary (agent-model): It ran long.");
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("Here is the summary.");
    expect(log.runs.summarise).toBe(1);
  });

  it("uses samplingModel instead when one is given, and the agent's model is not asked", async () => {
    const { url } = await serveAskingTools();
    const sampler = new ScriptedModel([textResponse("Long meeting.")], { name: "sampler" });
    const model = new ScriptedModel([functionCallsResponse({ name: "summarise", args: {} }), textResponse("Done.")]);
    const { events } = await startRun(new LlmAgent({ name: "notes", model, tools: [remote(url, { samplingModel: sampler })] }), "summarise");
    expect(responseText(events, "summarise")).toContain("Summary (sampler): Long meeting.");
    expect(sampler.requests).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
  });

  it("answers the server with an error naming samplingModel when no agent is running the call", async () => {
    const { url } = await serveAskingTools();
    const tool = (await remote(url).getTools(undefined as never)).find((candidate) => candidate.name === "summarise")!;
    const result = JSON.stringify(await tool.run({}, await createToolContext()));
    console.log(`sampling outside an agent's run, the model sees: ${result}`);
    expect(result).toContain("no agent model to answer with. Pass samplingModel to MCPToolset.");
  });

  it("answers at most maxSamplingPerCall sampling requests (default 10) during one call, then refuses with MCP_SAMPLING_LIMIT; each call has its own allowance", async () => {
    const { url } = await serveAskingTools();
    // The served tool asks ten times in one call: the MCP SDK's listener per request piled up on the call's signal, and Node warned of a leak.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    cleanups.push(() => void process.off("warning", onWarning));
    const answers = Array.from({ length: 40 }, () => textResponse("sure"));
    const sampler = new ScriptedModel(answers, { name: "sampler" });
    const model = new ScriptedModel([functionCallsResponse({ name: "greedy", args: {} }), functionCallsResponse({ name: "greedy", args: {} }), textResponse("Stopped.")]);
    const { events } = await startRun(new LlmAgent({ name: "notes", model, tools: [remote(url, { samplingModel: sampler })] }), "go");
    const results = events.flatMap((event) => getFunctionResponses(event.content)).map((response) => response.response as { text: string });
    console.log(`a greedy MCP server, default allowance: ${sampler.requests.length} completions answered over 2 calls, then: ${JSON.stringify(results[0])}`);
    expect(results.map((result) => JSON.parse(result.text).answered)).toEqual([10, 10]);
    expect(JSON.parse(results[0]!.text).refused).toContain(
      "The MCP server asked for more model completions (sampling) during one tool call than the 10 toolsmith answers, so that a server cannot spend the model's quota without end. Raise MCPToolset's maxSamplingPerCall if this server needs more.",
    );
    expect(sampler.requests).toHaveLength(20);
    expect(warnings).not.toContain("MaxListenersExceededWarning");

    const few = new ScriptedModel(answers, { name: "few" });
    const second = new ScriptedModel([functionCallsResponse({ name: "greedy", args: {} }), textResponse("Stopped.")]);
    const run = await startRun(new LlmAgent({ name: "notes", model: second, tools: [remote(url, { samplingModel: few, maxSamplingPerCall: 2 })] }), "go");
    expect(JSON.parse((run.events.flatMap((event) => getFunctionResponses(event.content))[0]!.response as { text: string }).text).answered).toBe(2);
    expect(few.requests).toHaveLength(2);
  });

  it("counts requests made when no call is running against one allowance per connection, answered only with samplingModel", async () => {
    const report = join(tempDir(), "report.json");
    const sampler = new ScriptedModel(Array.from({ length: 12 }, () => textResponse("sure")), { name: "sampler" });
    const toolset = new MCPToolset({
      connection: { command: process.execPath, args: ["--import", "tsx", new URL("./fixtures/sampling-outside-calls.ts", import.meta.url).pathname], env: { ...(process.env as Record<string, string>), SAMPLING_REPORT: report }, stderr: "ignore" },
      samplingModel: sampler,
      maxSamplingPerCall: 3,
    });
    cleanups.push(() => toolset.close());
    const [start] = await toolset.getTools(undefined as never);
    await start!.run({}, await createToolContext());
    await expect.poll(() => existsSync(report), { timeout: 20_000 }).toBe(true);
    const { answered, refusal } = JSON.parse(readFileSync(report, "utf8")) as { answered: number; refusal: string };
    console.log(`an MCP server asking with no call running: ${answered} of 12 answered; the rest told: ${refusal}`);
    expect(answered).toBe(3);
    expect(sampler.requests).toHaveLength(3);
    expect(refusal).toContain("The MCP server asked for more model completions (sampling) outside any tool call than the 3 toolsmith answers");
  });

  it("offers no sampling with maxSamplingPerCall: 0, as ADK's client, and refuses an allowance that is no whole number", async () => {
    const { url } = await serveAskingTools();
    const sampler = new ScriptedModel([textResponse("never")], { name: "sampler" });
    const model = new ScriptedModel([functionCallsResponse({ name: "greedy", args: {} }), textResponse("Stopped.")]);
    const { events } = await startRun(new LlmAgent({ name: "notes", model, tools: [remote(url, { samplingModel: sampler, maxSamplingPerCall: 0 })] }), "go");
    const result = JSON.parse((events.flatMap((event) => getFunctionResponses(event.content))[0]!.response as { text: string }).text) as { answered: number; refused: string };
    expect(result.answered).toBe(0);
    expect(result.refused).toContain("did not offer sampling");
    expect(sampler.requests).toHaveLength(0);
    for (const given of [-1, 1.5, Number.NaN, "10"]) {
      expect(() => new MCPToolset({ connection: { type: "http", url }, maxSamplingPerCall: given as number })).toThrow(/^MCPToolset: maxSamplingPerCall is how many sampling requests one tool call may make, a whole number from 0 \(no sampling\); it got /);
    }
  });

  it("answers server-everything's sampling request (stdio) with the agent's model", async () => {
    const toolset = new MCPToolset({ connection: { command: process.execPath, args: [referenceServer("everything")], stderr: "ignore" }, toolFilter: ["trigger-sampling-request"] });
    cleanups.push(() => toolset.close());
    const model = new ScriptedModel([functionCallsResponse({ name: "trigger-sampling-request", args: { prompt: "Capital of Peru?" } }), textResponse("Lima."), textResponse("It is Lima.")]);
    const { events } = await startRun(new LlmAgent({ name: "geo", model, tools: [toolset] }), "capital of Peru?");
    expect(model.requests[1]!.contents[0]!.parts![0]!.text).toContain("Capital of Peru?");
    expect(responseText(events, "trigger-sampling-request")).toContain("Lima.");
  });
});

describe("elicitation: the run pauses for the person and the server's call stays open", () => {
  it("pauses with a confirmation carrying the server's form, and the person's answer resumes the same server call", async () => {
    const { url, log } = await serveAskingTools();
    const model = new ScriptedModel([functionCallsResponse({ name: "book_table", args: {} }), textResponse("Booked.")]);
    const toolset = remote(url);
    const { runner, sessionId, events } = await startRun(new LlmAgent({ name: "host", model, tools: [toolset] }), "book a table");

    const request = confirmationRequest(events)!;
    const confirmation = request.args!.toolConfirmation as { hint: string; payload: Record<string, unknown> };
    expect(confirmation.hint).toBe("The MCP server asks: For how many people?");
    expect(confirmation.payload).toEqual({
      mcpElicitation: {
        message: "For how many people?",
        requestedSchema: PEOPLE_FORM,
      },
      content: { terrace: false },
    });
    expect(getFunctionResponses(events.find((event) => getFunctionResponses(event.content).length)!.content)[0]!.response).toMatchObject({ status: "paused", waitingFor: "confirmation" });
    // The model has not been called again: the run waits for the person.
    expect(model.requests).toHaveLength(1);

    const resumed = await answer(runner, sessionId, request.id!, { confirmed: true, payload: { ...confirmation.payload, content: { people: 4, terrace: true } } });
    expect(responseText(resumed, "book_table")).toContain('Booked: {\\"people\\":4,\\"terrace\\":true}');
    expect(resumed.at(-1)!.content!.parts![0]!.text).toBe("Booked.");
    // One server call: the answer went to the call kept open, not to a new one.
    expect(log.booked.runs).toBe(1);
    expect(log.booked.answers).toEqual([{ action: "accept", content: { people: 4, terrace: true } }]);
  });

  it("sends a rejection to the server as decline, and a payload action cancel as cancel", async () => {
    const { url, log } = await serveAskingTools();
    for (const [response, expected] of [
      [{ confirmed: false }, "Not booked (decline)."],
      [{ confirmed: true, payload: { action: "cancel" } }, "Not booked (cancel)."],
    ] as const) {
      const model = new ScriptedModel([functionCallsResponse({ name: "book_table", args: {} }), textResponse("ok")]);
      const { runner, sessionId, events } = await startRun(new LlmAgent({ name: "host", model, tools: [remote(url)] }), "book");
      const resumed = await answer(runner, sessionId, confirmationRequest(events)!.id!, response);
      expect(responseText(resumed, "book_table")).toContain(expected);
    }
    expect(log.booked.answers).toEqual([{ action: "decline" }, { action: "cancel" }]);
  });

  it("asks again, saying what is wrong, when the answer does not fit the server's form; the call stays open", async () => {
    const { url, log } = await serveAskingTools();
    const model = new ScriptedModel([functionCallsResponse({ name: "book_table", args: {} }), textResponse("ok")]);
    const { runner, sessionId, events } = await startRun(new LlmAgent({ name: "host", model, tools: [remote(url)] }), "book");
    const again = await answer(runner, sessionId, confirmationRequest(events)!.id!, { confirmed: true, payload: { content: { people: "four" } } });
    const second = confirmationRequest(again)!;
    const hint = (second.args!.toolConfirmation as { hint: string }).hint;
    console.log(`an answer that does not fit the form is asked again with: ${hint}`);
    expect(hint).toMatch(/^The MCP server asks: For how many people\? \(the answer does not fit the form: .*people.*integer/);
    const resumed = await answer(runner, sessionId, second.id!, { confirmed: true, payload: { content: { people: 2 } } });
    expect(responseText(resumed, "book_table")).toContain('Booked: {\\"people\\":2,\\"terrace\\":false}');
    expect(log.booked.runs).toBe(1);
  });

  it("tells the server cancel once the wait passes, and a later answer tells the model the call is gone without calling again", async () => {
    const { url, log } = await serveAskingTools();
    const model = new ScriptedModel([functionCallsResponse({ name: "book_table", args: {} }), textResponse("Sorry.")]);
    const { runner, sessionId, events } = await startRun(new LlmAgent({ name: "host", model, tools: [remote(url, { elicitationWaitMs: 150 })] }), "book");
    await expect.poll(() => log.booked.answers).toEqual([{ action: "cancel" }]);
    const late = await answer(runner, sessionId, confirmationRequest(events)!.id!, { confirmed: true, payload: { content: { people: 3 } } });
    const told = responseText(late, "book_table");
    console.log(`an answer after the wait, the model sees: ${told}`);
    expect(told).toContain("was no longer open when the answer came");
    expect(told).toContain("MCP_CALL_INTERRUPTED");
    expect(log.booked.runs).toBe(1);
  });

  it("after a restart (a new toolset and runner over the same sessions) the answer reaches no call, and the tool is not run twice", async () => {
    const { url, log } = await serveAskingTools();
    const first = remote(url);
    const model = new ScriptedModel([functionCallsResponse({ name: "book_table", args: {} })]);
    const { sessionId, events } = await startRun(new LlmAgent({ name: "host", model, tools: [first] }), "book");
    // The process "stops": its toolset and the calls it kept open are gone.
    await first.close();

    const restartedModel = new ScriptedModel([textResponse("I could not finish the booking.")]);
    const restarted = new Runner({ appName: "mcp", agent: new LlmAgent({ name: "host", model: restartedModel, tools: [remote(url)] }), sessionService });
    const late = await answer(restarted, sessionId, confirmationRequest(events)!.id!, { confirmed: true, payload: { content: { people: 3 } } });
    expect(responseText(late, "book_table")).toContain("no longer open");
    expect(restartedModel.requests[0]!.contents.at(-1)!.parts![0]!.functionResponse!.response).toMatchObject({ code: "MCP_CALL_INTERRUPTED" });
    expect(log.booked.runs).toBe(1);
  });

  it("answers cancel when two calls of the toolset are in flight, since MCP does not say which one asked", async () => {
    const { url, log } = await serveAskingTools();
    const model = new ScriptedModel([functionCallsResponse({ name: "book_table", args: {} }, { name: "slow", args: {} }), textResponse("ok")]);
    const { events } = await startRun(new LlmAgent({ name: "host", model, tools: [remote(url)] }), "book and wait");
    expect(responseText(events, "book_table")).toContain("Not booked (cancel).");
    expect(responseText(events, "slow")).toContain("slow done");
    expect(log.booked.answers).toEqual([{ action: "cancel" }]);
  });

  it("still lets onElicitation answer from code, with no pause", async () => {
    const { url } = await serveAskingTools();
    const model = new ScriptedModel([functionCallsResponse({ name: "book_table", args: {} }), textResponse("ok")]);
    const toolset = remote(url, { onElicitation: async (request) => ({ action: "accept", content: { people: request.message.length } }) });
    const { events } = await startRun(new LlmAgent({ name: "host", model, tools: [toolset] }), "book");
    expect(confirmationRequest(events)).toBeUndefined();
    expect(responseText(events, "book_table")).toContain('Booked: {\\"people\\":20,\\"terrace\\":false}');
  });

  it("keeps requireConfirmation's own approvals and rejections working beside elicitation", async () => {
    const { url, log } = await serveAskingTools();
    const model = new ScriptedModel([functionCallsResponse({ name: "slow", args: {} }), textResponse("ok")]);
    const { runner, sessionId, events } = await startRun(new LlmAgent({ name: "host", model, tools: [remote(url, { requireConfirmation: true })] }), "wait");
    const rejected = await answer(runner, sessionId, confirmationRequest(events)!.id!, { confirmed: false });
    expect(responseText(rejected, "slow")).toContain('The user declined the call to \\"slow\\", so it did not run.');
    expect(log.runs.slow).toBeUndefined();
  });
});

/**
 * Agents, tools and the runner given options they cannot use (what a JavaScript program, a typo or an `as any`
 * lets through): each is refused where it is made, with the error a user sees, instead of a TypeError from inside
 * toolsmith or a failure at the first model call. A run request the runner cannot read is refused before the
 * session is read or written.
 */
import { describe, expect, it } from "vitest";
import { AgentTool, ConfigurationError, FunctionTool, InMemorySessionService, LlmAgent, LoopAgent, ParallelAgent, Runner, SequentialAgent } from "../../src/index.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

/** The code and message `make` fails with. */
async function refusal(make: () => unknown): Promise<{ code: string; message: string }> {
  try {
    const made = make();
    if (made && typeof (made as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") await collect(made as AsyncGenerator<never>);
    else await made;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return { code: (error as ConfigurationError).code, message: (error as ConfigurationError).message };
  }
  throw new Error("it was accepted");
}

const model = new ScriptedModel([textResponse("hi")]);
const anyOptions = (options: unknown) => options as never;

describe("agents made with options they cannot use", () => {
  it("refuses an agent without a name, as ADK does, and one whose name is no text", async () => {
    expect(await refusal(() => new LlmAgent(anyOptions({ model })))).toEqual({
      code: "INVALID_AGENT_NAME",
      message: 'An agent needs a name: an identifier (letters, digits and "_", not starting with a digit) other than "user", as in { name: "helper" }.',
    });
    expect((await refusal(() => new LlmAgent(anyOptions({ name: 5, model })))).code).toBe("INVALID_AGENT_NAME");
    expect(await refusal(() => new LlmAgent(anyOptions(undefined)))).toEqual({ code: "UNSUPPORTED_OPTION", message: 'LlmAgent takes an options object: new LlmAgent({ name: "helper", … }).' });
    expect(await refusal(() => new SequentialAgent(anyOptions(undefined)))).toEqual({ code: "UNSUPPORTED_OPTION", message: 'SequentialAgent takes an options object: new SequentialAgent({ name: "steps", subAgents: [first, second] }).' });
  });

  it("refuses a model, instruction or tool list of the wrong kind, which failed at the first model call", async () => {
    expect(await refusal(() => new LlmAgent(anyOptions({ name: "a", model: 5 })))).toEqual({
      code: "UNSUPPORTED_OPTION",
      message: 'Agent "a": model is a model\'s name ("gemini-2.5-flash", "openai/gpt-4.1") or a model object (new Gemini({ … }), a BaseLlm); it got 5.',
    });
    expect((await refusal(() => new LlmAgent(anyOptions({ name: "a", model: { name: "m" } })))).message).toContain("it got an object that is no model.");
    expect(await refusal(() => new LlmAgent(anyOptions({ name: "a", model, instruction: ["be brief"] })))).toEqual({
      code: "UNSUPPORTED_OPTION",
      message: 'Agent "a": instruction is a text or a function of the context that returns one; it got a list.',
    });
    expect(await refusal(() => new LlmAgent(anyOptions({ name: "a", model, tools: { lookup: () => 1 } })))).toEqual({
      code: "INVALID_TOOL",
      message: 'Agent "a": tools is a list of tools and toolsets ([lookupOrder, files]); it got an object.',
    });
  });

  it("refuses sub-agents that are not agents, naming the entry", async () => {
    const helper = new LlmAgent({ name: "helper", model });
    expect(await refusal(() => new LlmAgent(anyOptions({ name: "root", model, subAgents: [helper, { name: "ghost" }] })))).toEqual({
      code: "UNSUPPORTED_OPTION",
      message: 'Agent "root": subAgents[1] is an object that is no agent; give an agent made with new LlmAgent({ … }) (or another agent class).',
    });
    expect(await refusal(() => new ParallelAgent(anyOptions({ name: "fan", subAgents: helper })))).toEqual({
      code: "UNSUPPORTED_OPTION",
      message: 'Agent "fan": subAgents is a list of agents ([helper, reviewer]); it got an object that is no agent.',
    });
    // The refused agent adopted nothing: the helper can still go under another parent.
    expect(new SequentialAgent({ name: "steps", subAgents: [helper] }).subAgents).toEqual([helper]);
  });

  it("refuses a loop bound that is not a whole number of rounds, where ADK runs the loop no times", async () => {
    for (const maxIterations of [-1, 1.5, Number.NaN, "3"]) {
      expect(await refusal(() => new LoopAgent(anyOptions({ name: "loop", subAgents: [], maxIterations })))).toEqual({
        code: "UNSUPPORTED_OPTION",
        message: `LoopAgent "loop": maxIterations is a whole number of rounds, 0 or more (leave it out for no limit); it got ${typeof maxIterations === "string" ? JSON.stringify(maxIterations) : String(maxIterations)}.`,
      });
    }
    expect(new LoopAgent({ name: "none", subAgents: [], maxIterations: 0 }).maxIterations).toBe(0);
  });
});

describe("tools made with options they cannot use", () => {
  it("refuses a FunctionTool without a function to run, or with parameters that are no schema", async () => {
    expect(await refusal(() => new FunctionTool(anyOptions({ name: "lookup", description: "Looks up." })))).toEqual({
      code: "INVALID_TOOL",
      message: 'FunctionTool "lookup" needs execute: the function the tool runs, given the checked arguments and the tool context; it got nothing.',
    });
    expect(await refusal(() => new FunctionTool(anyOptions({ name: "lookup", description: "Looks up.", parameters: '{"type":"object"}', execute: () => 1 })))).toEqual({
      code: "INVALID_TOOL_SCHEMA",
      message: 'FunctionTool "lookup": parameters is a zod schema or a JSON Schema object; it got a string (parse JSON text with JSON.parse first).',
    });
    expect(await refusal(() => new FunctionTool(anyOptions(undefined)))).toEqual({
      code: "UNSUPPORTED_OPTION",
      message: 'FunctionTool takes an options object: new FunctionTool({ name: "lookup_order", description: "…", parameters, execute: async (args) => … }).',
    });
  });

  it("refuses an AgentTool without an agent", async () => {
    expect(await refusal(() => new AgentTool(anyOptions({})))).toEqual({ code: "INVALID_TOOL", message: "AgentTool needs the agent it runs: new AgentTool({ agent: helper }); it got no agent." });
    expect((await refusal(() => new AgentTool(anyOptions({ agent: "helper" })))).message).toBe("AgentTool needs the agent it runs: new AgentTool({ agent: helper }); it got something that is no agent.");
  });
});

describe("the runner given what it cannot use", () => {
  it("refuses no options and an agent that is none", async () => {
    expect(await refusal(() => new Runner(anyOptions(undefined)))).toEqual({ code: "UNSUPPORTED_OPTION", message: 'Runner takes an options object: new Runner({ appName: "my_app", agent }) or new Runner({ app }).' });
    expect(await refusal(() => new Runner(anyOptions({ appName: "app", agent: "helper" })))).toEqual({
      code: "NO_ROOT_AGENT",
      message: "The runner's agent is no agent: pass an agent made with new LlmAgent({ … }) (or another agent class) as new Runner({ appName, agent }).",
    });
  });

  it("refuses a run request without ids or with a message that is no Content, and stores nothing", async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "a", model: new ScriptedModel([textResponse("hi")]) }), sessionService });
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    const cases: [unknown, string][] = [
      [undefined, 'runAsync takes an options object: runner.runAsync({ userId, sessionId, newMessage: { role: "user", parts: [{ text: "hello" }] } }).'],
      [{ sessionId: session.id, newMessage: userMessage("hi") }, "runAsync needs userId: the id of the user the session belongs to; it got nothing."],
      [{ userId: "u", newMessage: userMessage("hi") }, "runAsync needs sessionId: the id of a session made with sessionService.createSession; it got nothing."],
      [{ userId: "u", sessionId: session.id, newMessage: "hi" }, 'runAsync\'s newMessage is a Content, { role: "user", parts: [{ text: "hello" }] }; it got a string (put it in parts: [{ text }]).'],
      [{ userId: "u", sessionId: session.id, newMessage: { role: "user", text: "hi" } }, 'runAsync\'s newMessage is a Content, { role: "user", parts: [{ text: "hello" }] }; it got an object without a list of parts.'],
    ];
    for (const [request, message] of cases) expect(await refusal(() => runner.runAsync(request as never))).toEqual({ code: "UNSUPPORTED_OPTION", message });
    // A live run is refused the same way, before a session is made.
    expect(await refusal(() => runner.runLive(anyOptions(undefined)))).toEqual({ code: "UNSUPPORTED_OPTION", message: "runLive takes an options object: runner.runLive({ userId, sessionId, liveRequestQueue: new LiveRequestQueue() })." });
    expect(await refusal(() => runner.runLive(anyOptions({ userId: 7, liveRequestQueue: {} })))).toEqual({ code: "UNSUPPORTED_OPTION", message: "runLive needs userId: the id of the user the session belongs to; it got 7." });
    expect((await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events).toEqual([]);
    expect((await sessionService.listSessions({ appName: "app" })).sessions).toHaveLength(1);
  });
});

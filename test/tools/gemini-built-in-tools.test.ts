import { describe, expect, it } from "vitest";
import { BuiltInCodeExecutor, GOOGLE_MAPS_GROUNDING, GOOGLE_SEARCH, GoogleMapsGroundingTool, GoogleSearchTool, InMemoryRunner, LlmAgent, URL_CONTEXT, UrlContextTool, type LlmAgentOptions } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

async function run(options: Omit<LlmAgentOptions, "name">, turns = 1) {
  const agent = new LlmAgent({ name: "assistant", ...options });
  const runner = new InMemoryRunner({ appName: "builtin", agent });
  const session = await runner.sessionService.createSession({ appName: "builtin", userId: "u1" });
  const events = [];
  for (let turn = 0; turn < turns; turn++) events.push(...(await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage(`turn ${turn}`) }))));
  return { agent, events };
}

describe("Gemini's built-in tools", () => {
  it("are named as in ADK and declare nothing to the model", () => {
    expect([GOOGLE_SEARCH.name, URL_CONTEXT.name, GOOGLE_MAPS_GROUNDING.name, new BuiltInCodeExecutor().name]).toEqual(["google_search", "url_context", "google_maps", "code_execution"]);
    expect(GOOGLE_SEARCH).toBeInstanceOf(GoogleSearchTool);
    expect(URL_CONTEXT).toBeInstanceOf(UrlContextTool);
    expect(GOOGLE_MAPS_GROUNDING).toBeInstanceOf(GoogleMapsGroundingTool);
    expect([GOOGLE_SEARCH.declaration(), URL_CONTEXT.declaration(), GOOGLE_MAPS_GROUNDING.declaration(), new BuiltInCodeExecutor().declaration()]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("add their entries to config.tools of every request, without changing the agent's config", async () => {
    const model = new ScriptedModel([textResponse("one"), textResponse("two")]);
    const generateContentConfig = { temperature: 0 };
    await run({ model, tools: [GOOGLE_SEARCH, URL_CONTEXT, GOOGLE_MAPS_GROUNDING], codeExecutor: new BuiltInCodeExecutor(), generateContentConfig }, 2);

    for (const request of model.requests) {
      expect(request.config.tools).toEqual([{ googleSearch: {} }, { urlContext: {} }, { googleMaps: {} }, { codeExecution: {} }]);
      expect(request.functionDeclarations).toEqual([]);
    }
    expect(generateContentConfig).toEqual({ temperature: 0 });
  });

  it("add no second entry when the request already asks for the same tool", async () => {
    const model = new ScriptedModel([textResponse("one")]);
    const alreadyAsked = ({ request }: { request: { config: Record<string, unknown> } }) => void (request.config.tools = [{ googleSearch: {} }]);
    await run({ model, tools: [GOOGLE_SEARCH], beforeModelCallback: alreadyAsked });
    // The callback runs after the tools changed the request: it replaced their entry with the same one.
    expect(model.requests[0]!.config.tools).toEqual([{ googleSearch: {} }]);
    const request = { config: { tools: [{ googleSearch: {} }] } } as never;
    GOOGLE_SEARCH.processLlmRequest({ llmRequest: request });
    expect((request as { config: { tools: unknown[] } }).config.tools).toEqual([{ googleSearch: {} }]);
  });

  it("answer a model that calls one as a function with an error it can read", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "google_search", args: { query: "x" } }), textResponse("I will answer directly.")]);
    const { events } = await run({ model, tools: [GOOGLE_SEARCH] });

    expect(events[1]!.content!.parts![0]!.functionResponse!.response).toEqual({
      status: "error",
      error: expect.stringContaining('"google_search" is run by Gemini while it answers, not called as a function.'),
    });
  });

  it("put the code executor among the agent's tools, so a second one with its name is refused", () => {
    const executor = new BuiltInCodeExecutor();
    expect(new LlmAgent({ name: "coder", model: "gemini-2.5-flash", codeExecutor: executor }).tools).toEqual([executor]);
    expect(() => new LlmAgent({ name: "coder", model: "gemini-2.5-flash", tools: [new BuiltInCodeExecutor()], codeExecutor: executor })).toThrow(/code_execution/);
  });

  it("refuses an object that is no code executor; ADK 2.0 takes any BaseCodeExecutor and never runs its code", async () => {
    // ADK 2.0's LLM agent accepts any BaseCodeExecutor but does not run the code a model writes with it (measured:
    // its response processors are empty). toolsmith says so when the agent is made, instead of a silent no-op.
    const adk = await import("@google/adk");
    const ran: string[] = [];
    class Recording extends adk.BaseCodeExecutor {
      async executeCode(params: { codeExecutionInput: { code: string } }) {
        ran.push(params.codeExecutionInput.code);
        return { stdout: "2", stderr: "", outputFiles: [] };
      }
    }
    class Scripted extends adk.BaseLlm {
      constructor() {
        super({ model: "scripted-code" });
      }
      async *generateContentAsync() {
        yield { content: { role: "model", parts: [{ text: "```python\nprint(1 + 1)\n```" }] } } as never;
      }
      async connect(): Promise<never> {
        throw new Error("not live");
      }
    }
    const runner = new adk.InMemoryRunner({ agent: new adk.LlmAgent({ name: "coder", model: new Scripted(), codeExecutor: new Recording() }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    for await (const _event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "1 + 1?" }] } }));
    expect(ran).toEqual([]);
    const own = { executeCode: async () => ({ stdout: "", stderr: "", outputFiles: [] }) };
    // toolsmith runs a BaseCodeExecutor's code (test/llm-agent/code-executor-loop.test.ts); an object that only looks like one is refused.
    expect(() => new LlmAgent({ name: "coder", model: "gemini-2.5-flash", codeExecutor: own as never })).toThrow(
      'Agent "coder": codeExecutor takes a code executor (new BuiltInCodeExecutor() for Gemini\'s own, new UnsafeLocalCodeExecutor(), new SandboxedCodeExecutor() from toolsmith/tools, or a class extending BaseCodeExecutor); it got an object that is no code executor.',
    );
  });
});

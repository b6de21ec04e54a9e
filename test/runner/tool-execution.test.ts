import { describe, expect, it } from "vitest";
import { FunctionTool, getFunctionResponses, isFinalResponse, LlmAgent, Runner } from "../../src/index.js";
import type { LlmAgentOptions, Tool } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

async function start(options: Omit<LlmAgentOptions, "name">) {
  const agent = new LlmAgent({ name: "agent", ...options });
  const runner = new Runner({ appName: "app", agent });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  return {
    runner,
    session,
    run: (text = "go", abortSignal?: AbortSignal) => collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage(text), abortSignal })),
  };
}
const responsesOf = (events: Awaited<ReturnType<typeof collect>>) => events.flatMap((event: any) => getFunctionResponses(event.content));

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

describe("tool execution in the runner", () => {
  it("answers a call to an unknown tool with an error listing the available tools, and goes on", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "get_wether", args: {} }), textResponse("Sorry.")]);
    const echo = new FunctionTool({ name: "echo", description: "Echoes.", execute: () => "hi" });
    const clock = new FunctionTool({ name: "clock", description: "Time.", execute: () => "now" });
    const { run } = await start({ model, tools: [echo, clock] });
    const events = await run();
    const [response] = responsesOf(events);
    expect(response!.response).toEqual({
      status: "error",
      error: 'Tool "get_wether" does not exist. Available tools: echo, clock. Call one of these instead.',
    });
    expect(isFinalResponse(events.at(-1)!)).toBe(true);
    model.assertComplete();
  });

  it("answers a tool that throws with an error result carrying the message, and goes on", async () => {
    const model = new ScriptedModel([functionCallsResponse({ name: "flaky", args: {} }), textResponse("It failed.")]);
    const flaky = new FunctionTool({ name: "flaky", description: "Fails.", execute: () => { throw new Error("database is down"); } });
    const { run } = await start({ model, tools: [flaky] });
    const [response] = responsesOf(await run());
    expect(response!.response!.status).toBe("error");
    expect(response!.response!.error).toContain("database is down");
    model.assertComplete();
  });

  it("aborts a tool that exceeds timeoutMs through its abort signal and answers with a timeout error", async () => {
    let sawAbort = false;
    const slow = new FunctionTool({
      name: "slow",
      description: "Slow.",
      timeoutMs: 30,
      execute: async (_args, context) => {
        context.abortSignal.addEventListener("abort", () => (sawAbort = true));
        await sleep(5_000, context.abortSignal);
      },
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "slow" }), textResponse("Timed out.")]);
    const { run } = await start({ model, tools: [slow] });
    const started = Date.now();
    const [response] = responsesOf(await run());
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(sawAbort).toBe(true);
    expect(response!.response!.error).toContain("did not finish within 30 ms");
  });

  it("stops the run and aborts running tools when the caller's signal aborts", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const wait = new FunctionTool({
      name: "wait",
      description: "Waits.",
      execute: async (_args, context) => {
        toolSignal = context.abortSignal;
        setTimeout(() => controller.abort(), 10);
        await sleep(5_000);
      },
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "wait" }), textResponse("never sent")]);
    const { run, runner, session } = await start({ model, tools: [wait] });
    const events = await run("go", controller.signal);
    expect(toolSignal?.aborted).toBe(true);
    expect(events).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.events).toHaveLength(2);
  });

  it("runs the calls of one response concurrently and merges their responses, in call order, into one event", async () => {
    const delays = [60, 10, 30];
    const timed = new FunctionTool({
      name: "timed",
      description: "Waits.",
      parameters: { type: "object", properties: { index: { type: "integer" } }, required: ["index"] },
      execute: async ({ index }) => {
        await sleep(delays[index as number]!);
        return { index };
      },
    });
    const model = new ScriptedModel([
      functionCallsResponse(...delays.map((_, index) => ({ name: "timed", args: { index } }))),
      textResponse("done"),
    ]);
    const { run } = await start({ model, tools: [timed] });
    const started = Date.now();
    const events = await run();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(60 + 10 + 30);
    expect(events[1]!.content!.parts!.map((part) => part.functionResponse!.response)).toEqual([{ index: 0 }, { index: 1 }, { index: 2 }]);
    expect(events[1]!.content!.parts!.map((part) => part.functionResponse!.id)).toEqual(events[0]!.content!.parts!.map((part) => part.functionCall!.id));
  });

  it("keeps every state change of parallel calls, the later call winning on the same key", async () => {
    const write = new FunctionTool({
      name: "write",
      description: "Writes state.",
      parameters: { type: "object", properties: { key: { type: "string" }, value: { type: "string" }, delay: { type: "number" } } },
      execute: async ({ key, value, delay }, context) => {
        await sleep(delay as number);
        context.state.set(key as string, value);
      },
    });
    const model = new ScriptedModel([
      functionCallsResponse(
        { name: "write", args: { key: "a", value: "first", delay: 30 } },
        { name: "write", args: { key: "b", value: "only", delay: 0 } },
        { name: "write", args: { key: "a", value: "second", delay: 0 } },
      ),
      textResponse("ok"),
    ]);
    const { run, runner, session } = await start({ model, tools: [write] });
    const events = await run();
    expect(events[1]!.actions.stateDelta).toEqual({ a: "second", b: "only" });
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.state).toMatchObject({ a: "second", b: "only" });
  });

  it("makes the function response final with skipSummarization: no further model call", async () => {
    const lookup = new FunctionTool({
      name: "lookup",
      description: "Looks up.",
      execute: (_args, context) => {
        context.actions.skipSummarization = true;
        return { answer: 42 };
      },
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "lookup" })]);
    const { run } = await start({ model, tools: [lookup] });
    const events = await run();
    expect(events).toHaveLength(2);
    expect(isFinalResponse(events[1]!)).toBe(true);
    expect(model.requests).toHaveLength(1);
    model.assertComplete();
  });

  it("lets a tool change the outgoing model request before it is sent", async () => {
    const rules: Tool = {
      name: "house_rules",
      description: "Adds house rules.",
      declaration: () => undefined,
      run: async () => ({}),
      processLlmRequest: (request, context) => {
        request.systemInstruction += `\n\nAlways greet user ${context.userId}.`;
      },
    };
    const model = new ScriptedModel([textResponse("Hello u")]);
    const { run } = await start({ model, instruction: "Be brief.", tools: [rules] });
    await run();
    expect(model.requests[0]!.systemInstruction).toBe("Be brief.\n\nAlways greet user u.");
    expect(model.requests[0]!.functionDeclarations).toEqual([]);
  });

  it("accepts a plain object as a tool and checks its arguments against its declared schema", async () => {
    const plain: Tool = {
      name: "square",
      description: "Squares.",
      declaration: () => ({ name: "square", description: "Squares.", parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } }),
      run: async (args) => (args.n as number) ** 2,
    };
    const model = new ScriptedModel([functionCallsResponse({ name: "square", args: { n: "x" } }, { name: "square", args: { n: 3 } }), textResponse("9")]);
    const { run } = await start({ model, tools: [plain] });
    const responses = responsesOf(await run());
    expect(responses[0]!.response!.error).toContain("n: must be number");
    expect(responses[1]!.response).toEqual({ result: 9 });
  });

  it("ends with a stored, typed error event (never a throw) when the model keeps calling tools past maxLlmCalls", async () => {
    const again = new FunctionTool({ name: "again", description: "Again.", execute: () => "x" });
    const model = new ScriptedModel(Array.from({ length: 5 }, () => functionCallsResponse({ name: "again" })));
    const agent = new LlmAgent({ name: "agent", model, tools: [again] });
    const runner = new Runner({ appName: "app", agent });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go"), runConfig: { maxLlmCalls: 3 } }));
    expect(events.at(-1)).toMatchObject({
      author: "agent",
      errorCode: "LLM_CALLS_LIMIT_EXCEEDED",
      errorMessage: "The run made more than 3 model calls. Raise runConfig.maxLlmCalls if this is expected, or check for a tool loop.",
    });
    // Three model calls, each answered by the tool, then the error: nothing more ran.
    expect(events.filter((event) => event.content?.parts?.some((part) => part.functionCall))).toHaveLength(3);
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    expect(stored!.events.at(-1)!.errorCode).toBe("LLM_CALLS_LIMIT_EXCEEDED");
  });
});

/** buildLlmRequest, callModel and the transfer tool on their own: what goes to the model, and what one model call yields. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createInvocationContext } from "../../src/agents/invocation-context.js";
import { SequentialAgent } from "../../src/agents/sequential-agent.js";
import { isToolsmithError } from "../../src/errors/toolsmith-error.js";
import { buildLlmRequest } from "../../src/llm-agent/build-llm-request.js";
import { callModel, streamModelCall } from "../../src/llm-agent/call-model.js";
import { LlmAgent, type LlmAgentOptions } from "../../src/llm-agent/llm-agent.js";
import { TRANSFER_TOOL_NAME, transferTargets, transferToolFor } from "../../src/llm-agent/transfer-to-agent-tool.js";
import type { LlmRequest } from "../../src/models/llm-request.js";
import type { LlmResponse } from "../../src/models/llm-response.js";
import type { Model } from "../../src/models/model.js";
import { InMemorySessionService } from "../../src/sessions/in-memory-session-service.js";
import { FunctionTool } from "../../src/tools/function-tool.js";
import type { Tool, Toolset } from "../../src/tools/tool.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";
import { withoutIdentity } from "../support/identity.js";
import { modelCallEvents } from "./fixtures.js";

async function contextFor(agent: LlmAgent, options: { state?: Record<string, unknown>; streaming?: boolean; maxLlmCalls?: number; abortSignal?: AbortSignal } = {}) {
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: "app", userId: "u", state: options.state });
  return createInvocationContext({
    agent,
    session,
    sessionService,
    abortSignal: options.abortSignal,
    runConfig: { streamingMode: options.streaming ? "sse" : "none", maxLlmCalls: options.maxLlmCalls },
  });
}

const agentWith = (options: Partial<LlmAgentOptions> = {}) => new LlmAgent({ name: "helper", model: new ScriptedModel([]), ...options });

/** A model that answers with what a function of the request returns, yielding each response in turn. */
function modelOf(respond: (request: LlmRequest) => LlmResponse[] | Error): Model & { seen: LlmRequest[] } {
  const seen: LlmRequest[] = [];
  return {
    name: "test-model",
    seen,
    async *generateContent(request) {
      seen.push(request);
      const answer = respond(request);
      if (answer instanceof Error) throw answer;
      yield* answer;
    },
  };
}

async function collectCall(agent: LlmAgent, model: Model, request: LlmRequest, options: Parameters<typeof contextFor>[1] = {}) {
  const context = await contextFor(agent, options);
  // As the loop calls the model: through the streaming generator when the run streams.
  const events = await modelCallEvents(options.streaming ? streamModelCall(agent, context, model, request) : callModel(agent, context, model, request));
  return { events, context };
}

const emptyRequest = (): LlmRequest => ({ model: "test-model", contents: [{ role: "user", parts: [{ text: "hi" }] }], systemInstruction: "", functionDeclarations: [], config: {} });

describe("buildLlmRequest", () => {
  it("fills {key} from state and drops an unset {key?}, leaving braces that name no state alone", async () => {
    const agent = agentWith({ instruction: 'Greet {user:name}{title?}. Answer as JSON like {"ok": true}.' });
    const { request } = await buildLlmRequest(agent, await contextFor(agent, { state: { "user:name": "Ada" } }), new ScriptedModel([]));
    expect(withoutIdentity(request.systemInstruction)).toBe('Greet Ada. Answer as JSON like {"ok": true}.');
  });

  it("refuses an instruction that needs a state key the session lacks, naming the key and the fix", async () => {
    const agent = agentWith({ instruction: "Help {customer}." });
    const failure = await Promise.resolve(buildLlmRequest(agent, await contextFor(agent), new ScriptedModel([]))).catch((error: unknown) => error);
    expect(isToolsmithError(failure) && failure.code).toBe("MISSING_STATE_KEY");
    expect((failure as Error).message).toBe('The instruction of agent "helper" uses {customer}, but the session state has no "customer". Set it before the run, or write {customer?} to make it optional.');
  });

  it("takes the instruction from a provider function, which sees the state, without filling placeholders in it", async () => {
    const agent = agentWith({ instruction: (context) => `Plan for {plan}: ${String(context.state.get("plan"))}` });
    const { request } = await buildLlmRequest(agent, await contextFor(agent, { state: { plan: "gold" } }), new ScriptedModel([]));
    expect(withoutIdentity(request.systemInstruction)).toBe("Plan for {plan}: gold");
  });

  it("declares every tool to the model, keeps the runnable tools beside the request by name, and copies the config", async () => {
    const lookup = new FunctionTool({ name: "lookup", description: "Looks up.", parameters: z.object({ id: z.string() }), execute: () => ({}) });
    const hidden: Tool = { name: "hidden", description: "Never declared.", declaration: () => undefined, run: async () => ({}) };
    const agent = agentWith({ tools: [lookup, hidden], generateContentConfig: { temperature: 0.2 } });
    const { request, toolsByName } = await buildLlmRequest(agent, await contextFor(agent), new ScriptedModel([]));
    expect(request.functionDeclarations.map((declaration) => declaration.name)).toEqual(["lookup"]);
    expect([...toolsByName.keys()]).toEqual(["lookup", "hidden"]);
    expect(request.config).toEqual({ temperature: 0.2, systemInstruction: request.systemInstruction });
    request.config.temperature = 1;
    expect(agent.generateContentConfig).toEqual({ temperature: 0.2 });
    expect("toolsByName" in request).toBe(false);
  });

  it("asks toolsets for their tools afresh on every request, with the state as it is then", async () => {
    let asked = 0;
    const toolset: Toolset = {
      async getTools(context) {
        asked++;
        const plan = context.state.get<string>("plan");
        return [new FunctionTool({ name: `tool_for_${plan}`, description: "Per plan.", execute: () => ({}) })];
      },
      close: async () => undefined,
    };
    const agent = agentWith({ tools: [toolset] });
    const first = await buildLlmRequest(agent, await contextFor(agent, { state: { plan: "free" } }), new ScriptedModel([]));
    const second = await buildLlmRequest(agent, await contextFor(agent, { state: { plan: "gold" } }), new ScriptedModel([]));
    expect([first.request.functionDeclarations[0]!.name, second.request.functionDeclarations[0]!.name, asked]).toEqual(["tool_for_free", "tool_for_gold", 2]);
  });

  it("lets a tool change the request before it is sent", async () => {
    const withRules: Tool = {
      name: "rules",
      description: "Adds rules.",
      declaration: () => undefined,
      run: async () => ({}),
      processLlmRequest: ({ llmRequest: request }) => {
        request.systemInstruction += "\n\nNever share secrets.";
      },
    };
    const agent = agentWith({ instruction: "Be brief.", tools: [withRules] });
    const { request } = await buildLlmRequest(agent, await contextFor(agent), new ScriptedModel([]));
    expect(withoutIdentity(request.systemInstruction)).toBe("Be brief.\n\nNever share secrets.");
  });

  it("adds the transfer tool and the list of agents to hand over to when the agent has sub-agents", async () => {
    const billing = new LlmAgent({ name: "billing", description: "Invoices and refunds.", model: new ScriptedModel([]) });
    const agent = agentWith({ instruction: "Route requests.", subAgents: [billing] });
    const { request, toolsByName } = await buildLlmRequest(agent, await contextFor(agent), new ScriptedModel([]));
    expect(toolsByName.has(TRANSFER_TOOL_NAME)).toBe(true);
    expect(request.functionDeclarations.find((declaration) => declaration.name === TRANSFER_TOOL_NAME)?.parameters).toMatchObject({ properties: { agent_name: { enum: ["billing"] } } });
    expect(request.systemInstruction).toContain("- billing: Invoices and refunds.");
  });
});

describe("transfer targets", () => {
  it("are the sub-agents, the parent and the peers under an LLM agent, less what the agent disallows", () => {
    const [a, b] = [new LlmAgent({ name: "a", model: new ScriptedModel([]) }), new LlmAgent({ name: "b", model: new ScriptedModel([]), disallowTransferToParent: true, disallowTransferToPeers: true })];
    const child = new LlmAgent({ name: "child", model: new ScriptedModel([]) });
    const c = new LlmAgent({ name: "c", model: new ScriptedModel([]), subAgents: [child] });
    const root = new LlmAgent({ name: "root", model: new ScriptedModel([]), subAgents: [a, b, c] });
    expect(transferTargets(root).map((agent) => agent.name)).toEqual(["a", "b", "c"]);
    expect(transferTargets(a).map((agent) => agent.name)).toEqual(["root", "b", "c"]);
    expect(transferTargets(b)).toEqual([]);
    expect(transferTargets(c).map((agent) => agent.name)).toEqual(["child", "root", "a", "b"]);
    expect(transferToolFor(b)).toBeUndefined();
  });

  it("leave out the parent and peers under a workflow agent, which decides the order itself", () => {
    const first = new LlmAgent({ name: "first", model: new ScriptedModel([]) });
    const second = new LlmAgent({ name: "second", model: new ScriptedModel([]) });
    new SequentialAgent({ name: "pipeline", subAgents: [first, second] });
    expect(transferTargets(first)).toEqual([]);
  });

  it("refuse a name outside the list as an argument error the model can fix, before anything is transferred", async () => {
    const billing = new LlmAgent({ name: "billing", model: new ScriptedModel([]) });
    const agent = agentWith({ subAgents: [billing] });
    const tool = transferToolFor(agent)!.tool;
    expect(tool.checkArguments!({ agent_name: "billing" })).toEqual({ ok: true, value: { agent_name: "billing" } });
    const refused = tool.checkArguments!({ agent_name: "shipping" });
    expect(refused.ok).toBe(false);
  });
});

describe("callModel", () => {
  it("yields one complete event authored by the agent, with the model's content", async () => {
    const agent = agentWith();
    const { events, context } = await collectCall(agent, modelOf(() => [textResponse("Hello.")]), emptyRequest());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author: "helper", invocationId: context.invocationId, content: { role: "model", parts: [{ text: "Hello." }] } });
    expect(events[0]!.partial).toBeFalsy();
  });

  it("streams partial chunks under the same event id as the complete event when the run streams, and none when it does not", async () => {
    const chunks = (): LlmResponse[] => [
      { partial: true, content: { role: "model", parts: [{ text: "Hel" }] } },
      { partial: true, content: { role: "model", parts: [{ text: "lo." }] } },
      textResponse("Hello."),
    ];
    const streamed = await collectCall(agentWith(), modelOf(chunks), emptyRequest(), { streaming: true });
    expect(streamed.events.map((event) => [event.partial ?? false, event.content?.parts?.[0]?.text])).toEqual([
      [true, "Hel"],
      [true, "lo."],
      [false, "Hello."],
    ]);
    expect(new Set(streamed.events.map((event) => event.id)).size).toBe(1);
    const whole = await collectCall(agentWith(), modelOf(chunks), emptyRequest());
    expect(whole.events.map((event) => event.content?.parts?.[0]?.text)).toEqual(["Hello."]);
  });

  it("skips the model when a before-model callback answers, and lets it edit the request otherwise", async () => {
    const model = modelOf(() => [textResponse("from the model")]);
    const skipping = agentWith({ beforeModelCallback: () => textResponse("from the callback") });
    expect((await collectCall(skipping, model, emptyRequest())).events[0]!.content?.parts?.[0]?.text).toBe("from the callback");
    expect(model.seen).toHaveLength(0);
    const editing = agentWith({
      beforeModelCallback: ({ request }) => {
        request.systemInstruction = "Edited.";
        return undefined;
      },
    });
    await collectCall(editing, model, emptyRequest());
    expect(model.seen[0]!.systemInstruction).toBe("Edited.");
  });

  it("lets an after-model callback replace the response, trying callbacks in order until one answers", async () => {
    const calls: string[] = [];
    const agent = agentWith({
      afterModelCallback: [
        () => {
          calls.push("first");
          return undefined;
        },
        ({ response }) => {
          calls.push("second");
          return textResponse(`${response.content?.parts?.[0]?.text} (checked)`);
        },
        () => {
          calls.push("third");
          return textResponse("never");
        },
      ],
    });
    const { events } = await collectCall(agent, modelOf(() => [textResponse("Answer")]), emptyRequest());
    expect(events[0]!.content?.parts?.[0]?.text).toBe("Answer (checked)");
    expect(calls).toEqual(["first", "second"]);
  });

  it("turns a model that throws into an error event with its code, unless an on-model-error callback answers", async () => {
    const failing = modelOf(() => new Error("connection reset"));
    const plain = await collectCall(agentWith(), failing, emptyRequest());
    expect(plain.events).toHaveLength(1);
    expect(plain.events[0]).toMatchObject({ author: "helper", errorCode: "MODEL_ERROR", errorMessage: "connection reset" });
    const recovering = agentWith({ onModelErrorCallback: ({ error }) => textResponse(`Sorry, the model failed (${error.message}).`) });
    const recovered = await collectCall(recovering, failing, emptyRequest());
    expect(recovered.events[0]!.errorCode).toBeUndefined();
    expect(recovered.events[0]!.content?.parts?.[0]?.text).toBe("Sorry, the model failed (connection reset).");
  });

  it("says which model ended without content, as an error event", async () => {
    const { events } = await collectCall(agentWith(), modelOf(() => []), emptyRequest());
    expect(events[0]).toMatchObject({ errorCode: "MODEL_ERROR", errorMessage: 'Model "test-model" ended its response without content.' });
  });

  it("counts model calls across the invocation and answers the one past maxLlmCalls with an error event, without calling the model", async () => {
    const agent = agentWith();
    const context = await contextFor(agent, { maxLlmCalls: 2 });
    const model = modelOf(() => [textResponse("ok")]);
    for (let call = 0; call < 2; call++) await modelCallEvents(callModel(agent, context, model, emptyRequest()));
    const past = await modelCallEvents(callModel(agent, context, model, emptyRequest()));
    expect(past).toHaveLength(1);
    expect(past[0]).toMatchObject({ author: "helper", errorCode: "LLM_CALLS_LIMIT_EXCEEDED" });
    expect(model.seen).toHaveLength(2);
  });

  it("yields nothing more once the run is cancelled during the model call", async () => {
    const cancel = new AbortController();
    const model: Model = {
      name: "slow",
      async *generateContent() {
        yield { partial: true, content: { role: "model", parts: [{ text: "part" }] } };
        cancel.abort();
        yield textResponse("too late");
      },
    };
    const { events } = await collectCall(agentWith(), model, emptyRequest(), { streaming: true, abortSignal: cancel.signal });
    expect(events.map((event) => event.content?.parts?.[0]?.text)).toEqual(["part"]);
  });
});

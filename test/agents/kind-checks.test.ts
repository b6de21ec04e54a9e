import { describe, expect, it } from "vitest";
import {
  AgentTool,
  FunctionTool,
  InMemoryRunner,
  isAgentTool,
  isFunctionTool,
  isLlmAgent,
  isLoopAgent,
  isParallelAgent,
  isRunner,
  isSequentialAgent,
  LlmAgent,
  LongRunningFunctionTool,
  LoopAgent,
  ParallelAgent,
  REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
  REQUEST_CREDENTIAL_FUNCTION_CALL_NAME,
  Runner,
  SequentialAgent,
  StreamingMode,
  version,
} from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";

const model = new ScriptedModel([]);
const llmAgent = new LlmAgent({ name: "helper", model });
const sequential = new SequentialAgent({ name: "steps", subAgents: [new LlmAgent({ name: "a", model })] });
const parallel = new ParallelAgent({ name: "fan", subAgents: [new LlmAgent({ name: "b", model })] });
const loop = new LoopAgent({ name: "again", subAgents: [new LlmAgent({ name: "c", model })] });
const tool = new FunctionTool({ name: "now", description: "The time.", execute: () => ({ now: 1 }) });
const longRunning = new LongRunningFunctionTool({ name: "start", description: "Starts a job.", execute: () => ({ status: "started" }) });

describe("ADK's kind checks", () => {
  it("tell each kind of agent from the others", () => {
    const agents = [llmAgent, sequential, parallel, loop, { name: "plain" }];
    expect(agents.map(isLlmAgent)).toEqual([true, false, false, false, false]);
    expect(agents.map(isSequentialAgent)).toEqual([false, true, false, false, false]);
    expect(agents.map(isParallelAgent)).toEqual([false, false, true, false, false]);
    expect(agents.map(isLoopAgent)).toEqual([false, false, false, true, false]);
  });

  it("tell function tools and agent tools apart, a long-running function tool being a function tool", () => {
    const tools = [tool, longRunning, new AgentTool({ agent: new LlmAgent({ name: "inner", model }) }), { name: "plain" }];
    expect(tools.map(isFunctionTool)).toEqual([true, true, false, false]);
    expect(tools.map(isAgentTool)).toEqual([false, false, true, false]);
  });

  it("recognise runners, in-memory ones included", () => {
    expect([new Runner({ appName: "a", agent: llmAgent }), new InMemoryRunner({ agent: loop }), {}].map(isRunner)).toEqual([true, true, false]);
  });
});

describe("ADK's constants", () => {
  it("name the client functions as ADK does", () => {
    expect([REQUEST_CONFIRMATION_FUNCTION_CALL_NAME, REQUEST_CREDENTIAL_FUNCTION_CALL_NAME]).toEqual(["adk_request_confirmation", "adk_request_credential"]);
  });

  it("give the streaming modes ADK's values", () => {
    expect(StreamingMode).toEqual({ NONE: "none", SSE: "sse", BIDI: "bidi" });
  });

  it("export toolsmith's own version as `version`", async () => {
    const manifest = (await import("../../package.json", { with: { type: "json" } })).default as { version: string };
    expect(version).toBe(manifest.version);
  });
});

/**
 * How a run or a stored session becomes ADK invocations: one per user
 * message, its tool calls in order, its last final answer, and what other
 * agents said on the way; the case's session_input starts the replay.
 */
import { describe, expect, it } from "vitest";
import { createEvent, LlmAgent, SequentialAgent, type Event } from "../../src/index.js";
import { invocationsFromEvents, runEvalCase, type EvalCase } from "../../src/eval/index.js";
import { FunctionModel, functionCallsResponse, lastUserText, ScriptedModel, textResponse } from "../../src/testing/index.js";
import { homeAutomationAgent } from "./home-automation.js";

function user(text: string, invocationId: string): Event {
  return createEvent({ author: "user", invocationId, content: { role: "user", parts: [{ text }] } });
}

describe("invocations from a session's events", () => {
  it("splits the events at each user message, keeping each turn's calls in order and its final answer", () => {
    const events: Event[] = [
      user("turn off device_2", "i1"),
      createEvent({ author: "home", invocationId: "i1", content: { role: "model", parts: [{ functionCall: { id: "adk-1", name: "set_device_info", args: { device_id: "device_2" } } }] } }),
      createEvent({ author: "home", invocationId: "i1", content: { role: "user", parts: [{ functionResponse: { id: "adk-1", name: "set_device_info", response: { status: "success" } } }] } }),
      createEvent({ author: "home", invocationId: "i1", partial: true, content: { role: "model", parts: [{ text: "Do" }] } }),
      createEvent({ author: "home", invocationId: "i1", content: { role: "model", parts: [{ text: "Done." }] } }),
      user("thanks", "i2"),
      createEvent({ author: "home", invocationId: "i2", content: { role: "model", parts: [{ text: "You are welcome", thought: true }, { text: "Any time." }] } }),
    ];
    const invocations = invocationsFromEvents(events, "home");
    expect(invocations).toHaveLength(2);
    expect(invocations[0]).toMatchObject({
      invocationId: "i1",
      userContent: { role: "user", parts: [{ text: "turn off device_2" }] },
      finalResponse: { role: "model", parts: [{ text: "Done." }] },
      intermediateData: { toolUses: [{ name: "set_device_info", args: { device_id: "device_2" } }], intermediateResponses: [] },
    });
    expect(invocations[0]!.toolResponses).toEqual([{ id: "adk-1", name: "set_device_info", response: { status: "success" } }]);
    // Thoughts are not the answer.
    expect(invocations[1]!.finalResponse).toEqual({ role: "model", parts: [{ text: "Any time." }] });
  });

  it("keeps a user event that only answers a paused call in the same turn, and records an error the turn ended with", () => {
    const events: Event[] = [
      user("refund A-17", "i1"),
      createEvent({ author: "shop", invocationId: "i1", content: { role: "model", parts: [{ functionCall: { id: "c1", name: "issue_refund", args: { orderId: "A-17" } } }] }, longRunningToolIds: ["c1"] }),
      createEvent({ author: "user", invocationId: "i2", content: { role: "user", parts: [{ functionResponse: { id: "c1", name: "issue_refund", response: { status: "approved" } } }] } }),
      createEvent({ author: "shop", invocationId: "i2", errorCode: "MODEL_UNAVAILABLE", errorMessage: "503" }),
    ];
    const [turn, ...rest] = invocationsFromEvents(events, "shop");
    expect(rest).toEqual([]);
    expect(turn!.intermediateData!.toolUses).toEqual([{ name: "issue_refund", args: { orderId: "A-17" } }]);
    expect(turn!.toolResponses.map((response) => response.response)).toEqual([{ status: "approved" }]);
    expect(turn!.error).toEqual({ code: "MODEL_UNAVAILABLE", message: "503" });
    expect(turn!.finalResponse).toBeUndefined();
  });

  it("takes the last final answer of a pipeline and keeps the earlier agents' answers as intermediate responses", async () => {
    const drafter = new LlmAgent({ name: "drafter", model: new ScriptedModel([textResponse("Draft: switch device_2 off.")]) });
    const checker = new LlmAgent({ name: "checker", model: new ScriptedModel([textResponse("Checked: device_2 is off.")]) });
    const pipeline = new SequentialAgent({ name: "pipeline", subAgents: [drafter, checker] });
    const evalCase: EvalCase = { evalId: "p", creationTimestamp: 0, conversation: [{ invocationId: "", userContent: { role: "user", parts: [{ text: "off please" }] }, creationTimestamp: 0 }] };
    const { invocations } = await runEvalCase({ agent: pipeline, evalCase });
    expect(invocations[0]!.finalResponse).toEqual({ role: "model", parts: [{ text: "Checked: device_2 is off." }] });
    expect(invocations[0]!.intermediateData!.intermediateResponses).toEqual([["drafter", [{ text: "Draft: switch device_2 off." }]]]);
  });
});

describe("replaying an eval case", () => {
  it("starts the session from session_input (app, user and state the instruction reads) and runs each turn in the same session", async () => {
    const model = new FunctionModel((request) => {
      const text = lastUserText(request) ?? "";
      if (/where/i.test(text)) return textResponse(`You are at ${request.systemInstruction.match(/home (.+?)\./)?.[1] ?? "?"}; you said ${request.contents.filter((content) => content.role === "user").length} things.`);
      return textResponse("ok");
    });
    const agent = new LlmAgent({ name: "greeter", model, instruction: "You serve the home {home_name}." });
    const evalCase: EvalCase = {
      evalId: "where",
      creationTimestamp: 0,
      sessionInput: { appName: "home_app", userId: "ada", state: { home_name: "Maple Street" } },
      conversation: ["hello", "where am I?"].map((text) => ({ invocationId: "", userContent: { role: "user", parts: [{ text }] }, creationTimestamp: 0 })),
    };
    const run = await runEvalCase({ agent, evalCase });
    expect(run.userId).toBe("ada");
    expect(run.invocations.map((invocation) => invocation.finalResponse?.parts?.[0]?.text)).toEqual(["ok", "You are at Maple Street; you said 2 things."]);
    // The case's state object is the case's: the run works on a copy.
    expect(evalCase.sessionInput!.state).toEqual({ home_name: "Maple Street" });
  });

  it("replays without session_input under the app name given, and a turn the model fails ends with its error instead of throwing", async () => {
    const agent = homeAutomationAgent(new ScriptedModel([functionCallsResponse({ name: "get_device_info", args: { device_id: "device_1" } }), new Error("model went away")]));
    const evalCase: EvalCase = { evalId: "x", creationTimestamp: 0, conversation: [{ invocationId: "", userContent: { role: "user", parts: [{ text: "status of device_1?" }] }, creationTimestamp: 0 }] };
    const run = await runEvalCase({ agent, evalCase, appName: "named" });
    expect(run.userId).toBe("test_user_id");
    const [turn] = run.invocations;
    expect(turn!.intermediateData!.toolUses).toEqual([{ name: "get_device_info", args: { device_id: "device_1" } }]);
    expect(turn!.toolResponses[0]!.response).toEqual({ location: "Living Room", status: "ON" });
    expect(turn!.error?.message).toContain("model went away");
  });
});

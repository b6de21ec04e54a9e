import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ADK, TOOLSMITH, callTool, captureLogs, closeAll, say, serve, type Any, type Kit } from "./a2a-harness.js";

/**
 * A served agent whose tool needs a person's confirmation, asked over A2A, on `@google/adk` 2.0 and on toolsmith.
 * Both pause the task on the confirmation request alone. A peer's answer to it differs, deliberately: ADK ignores
 * the answer with a warning and runs the model on, which may then claim an action that never ran (here its scripted
 * "Paid."); toolsmith refuses the answer, tells the peer why, and keeps the task waiting. Neither runs the tool.
 */

afterEach(closeAll);

async function confirmOverA2A(kit: Kit) {
  let paid = 0;
  const model = kit.scripted([callTool("pay", { amount: 5 }), say("Paid."), say("Paid.")]);
  const pay = new kit.f.FunctionTool({ name: "pay", description: "Pays.", parameters: z.object({ amount: z.number() }), requireConfirmation: true, execute: ({ amount }: { amount: number }) => ({ paid: (paid += amount) }) });
  const served = await serve(kit, new kit.f.LlmAgent({ name: "payer", model: model.model, instruction: "Pay.", tools: [pay] }));
  let id = 0;
  const send = async (parts: unknown[], ids = {}) => {
    const body = { jsonrpc: "2.0", id: ++id, method: "message/send", params: { message: { kind: "message", messageId: `m${id}`, role: "user", parts, ...ids } } };
    return ((await (await fetch(`${served.base}/jsonrpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as Any).result;
  };
  const logs = captureLogs();
  try {
    const waiting = await send([{ kind: "text", text: "pay 5" }]);
    const names = (task: Any) => (task.status.message?.parts ?? []).map((part: Any) => part.data?.name ?? part.text);
    const confirmation = waiting.status.message.parts.find((part: Any) => part.data?.name === "adk_request_confirmation").data;
    const answered = await send([{ kind: "data", data: { id: confirmation.id, name: "adk_request_confirmation", response: { confirmed: true } }, metadata: { adk_type: "function_response" } }], { taskId: waiting.id, contextId: waiting.contextId });
    return {
      waiting: { state: waiting.status.state, asks: names(waiting) },
      answered: { state: answered.status.state, says: names(answered), lastArtifact: answered.artifacts?.at(-1)?.parts.map((part: Any) => part.text ?? part.data?.name) },
      paid,
      modelCalls: model.calls(),
      warned: logs.lines.some((line) => line.includes("Ignoring tool confirmation(s) delivered over A2A")),
    };
  } finally {
    logs.restore();
  }
}

describe("a tool confirmation asked over A2A", () => {
  it("pauses the task on the confirmation request alone, on both", async () => {
    const [adk, ours] = [await confirmOverA2A(ADK), await confirmOverA2A(TOOLSMITH)];
    expect(adk.waiting).toEqual({ state: "input-required", asks: ["adk_request_confirmation"] });
    expect(ours.waiting).toEqual(adk.waiting);
  });

  it("answered by the peer: ADK ignores the answer and lets the model claim the payment; toolsmith refuses it and keeps waiting; neither pays", async () => {
    const [adk, ours] = [await confirmOverA2A(ADK), await confirmOverA2A(TOOLSMITH)];
    expect(adk).toMatchObject({ answered: { state: "completed", lastArtifact: ["Paid."] }, paid: 0, modelCalls: 2, warned: true });
    expect(ours).toMatchObject({ answered: { state: "input-required", says: ["adk_request_confirmation", expect.stringMatching(/^The confirmation \S+ cannot be answered over A2A: it asks a person to take responsibility for an action/)] }, paid: 0, modelCalls: 1 });
  });
});

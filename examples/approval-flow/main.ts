/**
 * Human in the loop: `requireConfirmation` makes the runner pause with an
 * `adk_request_confirmation` call; the client shows it to a person and sends
 * the decision back as a function response. The tool never runs without it.
 */
import { FunctionTool, getText, isFinalResponse, LlmAgent, REQUEST_CONFIRMATION, Runner, type Content, type FunctionCall } from "toolsmith";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";

const refund = new FunctionTool({
  name: "issue_refund",
  description: "Refunds an order.",
  parameters: { type: "object", properties: { orderId: { type: "string" }, amount: { type: "number" } }, required: ["orderId", "amount"] },
  requireConfirmation: (args) => (args.amount as number) > 50,
  execute: ({ orderId, amount }) => ({ status: "refunded", orderId, amount }),
});

const agent = new LlmAgent({
  name: "refund_agent",
  model: new ScriptedModel([functionCallsResponse({ name: "issue_refund", args: { orderId: "A-17", amount: 120 } }), textResponse("The refund of 120 for order A-17 is done.")]),
  tools: [refund],
});
const runner = new Runner({ appName: "approvals", agent });
const session = await runner.sessionService.createSession({ appName: "approvals", userId: "user1" });

async function send(message: Content): Promise<FunctionCall | undefined> {
  let request: FunctionCall | undefined;
  for await (const event of runner.runAsync({ userId: "user1", sessionId: session.id, newMessage: message })) {
    for (const part of event.content?.parts ?? []) if (part.functionCall?.name === REQUEST_CONFIRMATION) request = part.functionCall;
    if (isFinalResponse(event) && getText(event.content)) console.log(`${event.author}: ${getText(event.content)}`);
  }
  return request;
}

console.log("user: Refund order A-17, 120 euros");
const request = await send(userMessage("Refund order A-17, 120 euros"));
const { originalFunctionCall, toolConfirmation } = request!.args as { originalFunctionCall: FunctionCall; toolConfirmation: { hint: string } };
console.log(`approval needed: ${toolConfirmation.hint}`);
console.log(`manager approves ${originalFunctionCall.name}(${JSON.stringify(originalFunctionCall.args)})`);
await send({ role: "user", parts: [{ functionResponse: { id: request!.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] });

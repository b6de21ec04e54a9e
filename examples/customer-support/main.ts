/**
 * The customer-support agents from ADK's documentation: a main agent whose
 * `check_and_transfer` tool hands urgent requests to a support agent by
 * setting `actions.transferToAgent`. The models are scripted (no model is
 * reachable here); swap in a real one with `model: "gemini-2.5-flash"`.
 */
import { getText, isFinalResponse, LlmAgent, Runner } from "toolsmith";
import { checkAndTransfer } from "./check-and-transfer.ts";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";

const supportAgent = new LlmAgent({
  name: "support_agent",
  description: "Handles urgent customer issues.",
  model: new ScriptedModel([textResponse("This is the support agent. I have escalated your login problem; you will get a reset link in 5 minutes.")]),
  instruction: "You are the dedicated support agent. Mention you are the support handler and help the user with their urgent issue.",
});

export const mainAgent = new LlmAgent({
  name: "main_agent",
  model: new ScriptedModel([functionCallsResponse({ name: "check_and_transfer", args: { query: "This is urgent, I can't log in" } })]),
  instruction: "You are the first point of contact for customer support. Analyze the user's query. If it sounds urgent, use the 'check_and_transfer' tool.",
  tools: [checkAndTransfer],
  subAgents: [supportAgent],
});

const runner = new Runner({ appName: "customer_support", agent: mainAgent });
const session = await runner.sessionService.createSession({ appName: "customer_support", userId: "user1" });
console.log("user: This is urgent, I can't log in");
for await (const event of runner.runAsync({ userId: "user1", sessionId: session.id, newMessage: userMessage("This is urgent, I can't log in") })) {
  for (const part of event.content?.parts ?? []) if (part.functionCall) console.log(`  ${event.author} → ${part.functionCall.name}(${JSON.stringify(part.functionCall.args)})`);
  if (event.actions.transferToAgent) console.log(`  (transfer to ${event.actions.transferToAgent})`);
  if (isFinalResponse(event)) console.log(`${event.author}: ${getText(event.content)}`);
}

/**
 * A long-running reimbursement request: the tool files a ticket and answers
 * "pending" at once, and the model tells the employee the request waits for
 * approval (as in ADK). Later (here: in a second Runner over the same session
 * store, as another process would) the approval arrives as a function
 * response with the call's id, and the agent continues.
 */
import { FunctionTool, getText, InMemorySessionService, isFinalResponse, LlmAgent, LongRunningFunctionTool, Runner, type Content } from "toolsmith";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "toolsmith/testing";

const reimburse = new FunctionTool({
  name: "reimburse",
  description: "Reimburses the amount to the employee.",
  parameters: { type: "object", properties: { purpose: { type: "string" }, amount: { type: "number" } }, required: ["purpose", "amount"] },
  execute: ({ purpose, amount }) => ({ status: "ok", purpose, amount }),
});
const askForApproval = new LongRunningFunctionTool({
  name: "ask_for_approval",
  description: "Asks for the manager's approval of a reimbursement.",
  parameters: { type: "object", properties: { purpose: { type: "string" }, amount: { type: "number" } }, required: ["purpose", "amount"] },
  execute: ({ purpose, amount }) => ({ status: "pending", purpose, amount, ticketId: "reimbursement-ticket-001" }),
});

const makeAgent = (model: ScriptedModel) =>
  new LlmAgent({
    name: "reimbursement_agent",
    model,
    instruction: "Reimburse amounts under 100 directly; ask for approval above that, then reimburse once approved.",
    tools: [reimburse, askForApproval],
  });
const store = new InMemorySessionService();

async function run(runner: Runner, sessionId: string, message: Content) {
  let pendingCallId: string | undefined;
  for await (const event of runner.runAsync({ userId: "employee", sessionId, newMessage: message })) {
    for (const part of event.content?.parts ?? []) {
      if (part.functionCall) console.log(`  ${event.author} → ${part.functionCall.name}(${JSON.stringify(part.functionCall.args)})`);
      if (part.functionResponse) console.log(`  ${part.functionResponse.name} ← ${JSON.stringify(part.functionResponse.response)}`);
    }
    if (event.longRunningToolIds?.length && !event.content?.parts?.[0]?.functionResponse) pendingCallId = event.longRunningToolIds[0];
    if (isFinalResponse(event) && getText(event.content)) console.log(`${event.author}: ${getText(event.content)}`);
  }
  return pendingCallId;
}

const first = new Runner({ appName: "expenses", agent: makeAgent(new ScriptedModel([functionCallsResponse({ name: "ask_for_approval", args: { purpose: "conference", amount: 450 } }), textResponse("Your request is waiting for your manager's approval.")])), sessionService: store });
const session = await store.createSession({ appName: "expenses", userId: "employee" });
console.log("user: Please reimburse 450 for the conference");
const callId = await run(first, session.id, userMessage("Please reimburse 450 for the conference"));
console.log(`(call ${callId} waits for the manager)`);

const second = new Runner({
  appName: "expenses",
  agent: makeAgent(new ScriptedModel([functionCallsResponse({ name: "reimburse", args: { purpose: "conference", amount: 450 } }), textResponse("Approved and reimbursed: 450 for the conference.")])),
  sessionService: store,
});
console.log("manager: approved");
await run(second, session.id, { role: "user", parts: [{ functionResponse: { id: callId, name: "ask_for_approval", response: { status: "approved", ticketId: "reimbursement-ticket-001" } } }] });

/**
 * One turn of an agent whose tool is a node that asks the person, in a process of its own, on a SQLite session
 * file: argument `{ file, sessionId?, answer? }`. Without `answer` it creates the session and sends the first
 * message; with it, it answers question "approve". Prints `{ sessionId, said, ran }` as one JSON line.
 */
import { z } from "zod";
import { LlmAgent, node, NodeTool, RequestInput, Runner, Workflow, type Content, type LlmRequest } from "../../../src/index.js";
import { SqliteSessionService } from "../../../src/sqlite/index.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../../src/testing/index.js";

const { file, sessionId, answer } = JSON.parse(process.argv[2]!) as { file: string; sessionId?: string; answer?: string };
const ran: string[] = [];
const draft = node((_ctx, input: string) => (ran.push("draft"), `refund for ${input}`), { name: "draft" });
const approve = node(async function* approve(_ctx, proposal: string) {
  ran.push("approve");
  yield new RequestInput({ interruptId: "approve", message: `Approve the ${proposal}?` });
}, { name: "approve" });
const pay = node((ctx, decision: unknown) => {
  ran.push("pay");
  ctx.state.set("paid", decision === "yes");
  return decision === "yes" ? "paid" : "not paid";
}, { name: "pay" });
const refund = new Workflow({ name: "refund", description: "Refunds an order once a person approves.", edges: [["START", draft, approve, pay]], inputSchema: z.string() });
// Each process has its own model: the first calls the tool, the second reads its result.
const model = new ScriptedModel(answer === undefined ? [functionCallsResponse({ name: "refund", args: { request: "order 7" } })] : [(request: LlmRequest) => textResponse(`Refund: ${JSON.stringify(request.contents.at(-1)!.parts![0]!.functionResponse!.response)}`)]);
const sessionService = new SqliteSessionService({ path: file });
const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "clerk", model, instruction: "Help.", tools: [new NodeTool(refund)] }), sessionService });
const id = sessionId ?? (await sessionService.createSession({ appName: "app", userId: "u" })).id;
const message: Content = answer === undefined ? { role: "user", parts: [{ text: "Refund order 7" }] } : { role: "user", parts: [{ functionResponse: { id: "approve", name: "adk_request_input", response: { result: answer } } }] };
const said: string[] = [];
for await (const event of runner.runAsync({ userId: "u", sessionId: id, newMessage: message })) {
  for (const part of event.content?.parts ?? []) said.push(part.text ?? (part.functionCall ? `${event.author} calls ${part.functionCall.name}` : `${event.author} answers ${part.functionResponse?.name} ${JSON.stringify(part.functionResponse?.response)}`));
}
await sessionService.close();
process.stdout.write(`${JSON.stringify({ sessionId: id, said, ran })}\n`);

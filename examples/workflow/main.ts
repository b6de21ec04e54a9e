/**
 * ADK 2's graph workflow: a support ticket is classified, a refund question goes to a refund check and an
 * order lookup that run at once and join, and an LLM agent writes the answer from what they found; anything else
 * gets a canned reply. Run it with `npx tsx examples/workflow/main.ts`.
 */
import { DEFAULT_ROUTE, FunctionNode, InMemoryRunner, JoinNode, LlmAgent, node, Workflow } from "toolsmith";
import { FunctionModel, lastUserText, textResponse } from "toolsmith/testing";

const classify = new FunctionNode("classify", (ctx, ticket: string) => {
  ctx.state.set("ticket", ticket);
  ctx.route = /refund|money back/i.test(ticket) ? "refund" : "other";
  return { ticket };
});
const refundPolicy = node(async function refund_policy() {
  return { refundable: true, withinDays: 30 };
});
const orderLookup = node(async function order_lookup(ctx) {
  const orderId = /A-\d+/.exec(String(ctx.state.get("ticket")))?.[0] ?? "unknown";
  return { orderId, deliveredDaysAgo: 12 };
});
const facts = new JoinNode({ name: "facts" });
// The model stands in for Gemini: it answers from the facts it is sent (the node's input, as a user message).
const writer = new LlmAgent({
  name: "writer",
  model: new FunctionModel((request) => {
    const { refund_policy: policy, order_lookup: order } = JSON.parse(lastUserText(request) ?? "{}");
    const refund = policy.refundable && order.deliveredDaysAgo <= policy.withinDays;
    return textResponse(`Order ${order.orderId} arrived ${order.deliveredDaysAgo} days ago, so ${refund ? "you can have a refund" : "it is too late for a refund"}.`);
  }),
  instruction: "Answer the customer from the facts you are given.",
});
const cannedReply = node(() => "Thanks, a person will answer you soon.", { name: "canned_reply" });

export const workflow = new Workflow({
  name: "support",
  edges: [
    ["START", classify, { refund: [refundPolicy, orderLookup], [DEFAULT_ROUTE]: cannedReply }],
    [[refundPolicy, orderLookup], facts, writer],
  ],
});

const runner = new InMemoryRunner({ agent: workflow, appName: "support" });
for (const ticket of ["I want my money back for A-17", "Where is the nearest shop?"]) {
  const session = await runner.sessionService.createSession({ appName: "support", userId: "ana" });
  for await (const event of runner.runAsync({ userId: "ana", sessionId: session.id, newMessage: { role: "user", parts: [{ text: ticket }] } })) {
    console.log(`${event.nodeInfo?.path}: ${JSON.stringify(event.output)}`);
  }
}

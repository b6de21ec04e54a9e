// ADK 2's graph workflow: a support ticket is classified; a refund question fans out to a policy check and an
// order lookup, which a JoinNode gathers for an LLM agent to answer from (its instruction reads the lookup's
// output); any other ticket takes the DEFAULT_ROUTE to a canned reply. Each event shows its node and output.
import { DEFAULT_ROUTE, FunctionNode, InMemoryRunner, JoinNode, LlmAgent, node, Workflow, type NodeContext } from '@google/adk';
import { script } from './script.js';

const classify = new FunctionNode('classify', (ctx, ticket: string) => {
  ctx.state.set('ticket', ticket);
  ctx.route = /refund|money back/i.test(ticket) ? 'refund' : 'other';
  return { ticket };
});
const refundPolicy = node(async function refund_policy() {
  return { refundable: true, withinDays: 30 };
});
const orderLookup = node(async function order_lookup(ctx: NodeContext) {
  const orderId = /A-\d+/.exec(String(ctx.state.get('ticket')))?.[0] ?? 'unknown';
  return { orderId, deliveredDaysAgo: 12 };
});
const facts = new JoinNode({ name: 'facts' });
const writer = new LlmAgent({
  name: 'writer',
  model: 'gemini-2.5-flash',
  instruction: 'Answer the customer about order <x.orderId from order_lookup> from the facts you are given.',
});
const cannedReply = node(() => 'Thanks, a person will answer you soon.', { name: 'canned_reply' });

const workflow = new Workflow({
  name: 'support',
  edges: [
    ['START', classify, { refund: [refundPolicy, orderLookup], [DEFAULT_ROUTE]: cannedReply }],
    [[refundPolicy, orderLookup], facts, writer],
  ],
});

export async function main(): Promise<void> {
  const runner = new InMemoryRunner({ agent: workflow, appName: 'support' });
  for (const ticket of script.userMessages) {
    const session = await runner.sessionService.createSession({ appName: 'support', userId: 'ana' });
    for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: ticket }] } })) {
      console.log(`${event.nodeInfo?.path} (${event.author}): ${JSON.stringify(event.output)}`);
    }
    const stored = await runner.sessionService.getSession({ appName: 'support', userId: 'ana', sessionId: session.id });
    console.log(`state: ${JSON.stringify(stored?.state)}; ${stored?.events.length} events stored`);
  }
}

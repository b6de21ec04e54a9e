// After ADK's Sessions guide: a chat handler keyed by a conversation id asks the runner's session service for
// that conversation with getOrCreateSession on every message, so the first message starts it (with the state
// given) and later ones continue it.
import { FunctionTool, InMemoryRunner, LlmAgent, isFinalResponse } from 'toolsmith';
import { createUserContent } from '@google/genai';
import { z } from 'zod';
import { script } from './script.js';

const lookupOrder = new FunctionTool({
  name: 'lookup_order',
  description: 'Looks up the status of an order.',
  parameters: z.object({ orderId: z.string().describe('The order number.') }),
  execute: ({ orderId }) => ({ orderId, status: orderId === '1234' ? 'shipped' : 'packing' }),
});

const agent = new LlmAgent({
  name: 'support_agent',
  model: 'gemini-2.5-flash',
  instruction: 'Answer questions about orders with lookup_order. The customer is on the {plan} plan.',
  tools: [lookupOrder],
});

const runner = new InMemoryRunner({ agent, appName: 'support_app' });

async function handleMessage(conversationId: string, text: string): Promise<void> {
  const session = await runner.sessionService.getOrCreateSession({ appName: 'support_app', userId: 'ana', sessionId: conversationId, state: { plan: 'pro' } });
  console.log(`Conversation ${session.id}: ${session.events.length} events before this message`);
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage: createUserContent(text) })) {
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
}

export async function main(): Promise<void> {
  const [first, second] = script.userMessages;
  await handleMessage('chat-ana', first!);
  await handleMessage('chat-ana', second!);
  const sessions = await runner.sessionService.listSessions({ appName: 'support_app', userId: 'ana' });
  console.log(`Sessions: ${sessions.sessions.map((session) => session.id).join(', ')}`);
  const stored = await runner.sessionService.getSession({ appName: 'support_app', userId: 'ana', sessionId: 'chat-ana' });
  console.log(`Stored state: ${JSON.stringify(stored!.state)}; events: ${stored!.events.length}`);
}

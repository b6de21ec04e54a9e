// After ADK's Runner reference: `runEphemeral` answers a one-off question in a session made for the run and
// deleted after it, and `runAsync`'s `customMetadata` is stored on the user's event (where the message came from).
import { FunctionTool, InMemoryRunner, LlmAgent, isFinalResponse } from 'toolsmith';
import { createUserContent } from '@google/genai';
import { z } from 'zod';
import { script } from './script.js';

const lookupOrder = new FunctionTool({
  name: 'lookup_order',
  description: 'Looks up the status of an order.',
  parameters: z.object({ orderId: z.string().describe('The order number.') }),
  execute: ({ orderId }) => ({ orderId, status: 'shipped' }),
});

const agent = new LlmAgent({
  name: 'support_agent',
  model: 'gemini-2.5-flash',
  instruction: 'Answer questions about orders with lookup_order.',
  tools: [lookupOrder],
});

export async function main(): Promise<void> {
  const runner = new InMemoryRunner({ agent, appName: 'support_app' });
  const [oneOff, tracked] = script.userMessages;
  for await (const event of runner.runEphemeral({ userId: 'ana', newMessage: createUserContent(oneOff!), customMetadata: { channel: 'widget' } })) {
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
  const left = await runner.sessionService.listSessions({ appName: 'support_app', userId: 'ana' });
  console.log(`Sessions left after the ephemeral run: ${left.sessions.length}`);

  const session = await runner.sessionService.createSession({ appName: 'support_app', userId: 'ana' });
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage: createUserContent(tracked!), customMetadata: { channel: 'email', ticket: 42 } })) {
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
  const stored = await runner.sessionService.getSession({ appName: 'support_app', userId: 'ana', sessionId: session.id });
  console.log(`The user's event carries: ${JSON.stringify(stored!.events[0]!.customMetadata)}`);
  console.log(`The answer's event carries: ${JSON.stringify(stored!.events.at(-1)!.customMetadata ?? null)}`);
}

// After ADK's RunConfig reference: with pauseOnToolCalls the run stops at the model's tool calls instead of
// running them, so the client (a browser, a phone) runs its own tools and sends their results back as function
// responses, and the next run goes on from them.
import { FunctionTool, InMemoryRunner, LlmAgent, getFunctionCalls, isFinalResponse } from '@google/adk';
import type { Content } from '@google/genai';
import { z } from 'zod';
import { script } from './script.js';

const ran: string[] = [];
const getLocation = new FunctionTool({
  name: 'get_location',
  description: "Returns the device's location (runs on the client).",
  parameters: z.object({}),
  execute: () => {
    ran.push('get_location');
    return { city: 'server-side' };
  },
});
const getLocalTime = new FunctionTool({
  name: 'get_local_time',
  description: 'Returns the local time in a timezone (runs on the client).',
  parameters: z.object({ timezone: z.string() }),
  execute: () => {
    ran.push('get_local_time');
    return { time: 'server-side' };
  },
});

const agent = new LlmAgent({ name: 'device_agent', model: 'gemini-2.5-flash', instruction: 'Use the device tools.', tools: [getLocation, getLocalTime] });

export async function main(): Promise<void> {
  const runner = new InMemoryRunner({ agent, appName: 'device_app' });
  const session = await runner.sessionService.createSession({ appName: 'device_app', userId: 'ana' });
  const [question] = script.userMessages;
  const asked: { id: string; name: string }[] = [];
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: question! }] }, runConfig: { pauseOnToolCalls: true } })) {
    for (const call of getFunctionCalls(event)) asked.push({ id: call.id!, name: call.name! });
    console.log(`[${event.author}] ${getFunctionCalls(event).map((call) => call.name).join(', ') || event.content?.parts?.[0]?.text} (final: ${isFinalResponse(event)})`);
  }
  console.log(`Tools run on the server: ${ran.length}`);
  const results: Record<string, Record<string, unknown>> = { get_location: { city: 'Lisbon' }, get_local_time: { time: '10:30' } };
  const answers: Content = { role: 'user', parts: asked.map(({ id, name }) => ({ functionResponse: { id, name, response: results[name]! } })) };
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage: answers, runConfig: { pauseOnToolCalls: true } })) {
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
  const stored = (await runner.sessionService.getSession({ appName: 'device_app', userId: 'ana', sessionId: session.id }))!;
  console.log(`Stored events: ${stored.events.map((event) => event.author).join(', ')}; tools run on the server: ${ran.length}`);
}

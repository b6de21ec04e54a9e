// After ADK's Sessions guide: a session store of your own extends BaseSessionService, implements create, get,
// list and delete, and keeps each event in appendEvent after the base class has applied it to the session
// (temp: keys are taken out of the event first). getOrCreateSession comes with the base class.
import { BaseSessionService, Context, FunctionTool, LlmAgent, Runner, isFinalResponse } from '@google/adk';
import type { AppendEventRequest, CreateSessionRequest, DeleteSessionRequest, Event, GetSessionRequest, ListSessionsRequest, ListSessionsResponse, Session } from '@google/adk';
import { createUserContent } from '@google/genai';
import { z } from 'zod';
import { script } from './script.js';

class MapSessionService extends BaseSessionService {
  private readonly rows = new Map<string, { appName: string; userId: string; state: Record<string, unknown>; events: Event[]; lastUpdateTime: number }>();
  private nextId = 1;

  async createSession({ appName, userId, state, sessionId }: CreateSessionRequest): Promise<Session> {
    const id = sessionId ?? `s${this.nextId++}`;
    this.rows.set(id, { appName, userId, state: { ...state }, events: [], lastUpdateTime: 0 });
    return (await this.getSession({ appName, userId, sessionId: id }))!;
  }

  async getSession({ appName, userId, sessionId }: GetSessionRequest): Promise<Session | undefined> {
    const row = this.rows.get(sessionId);
    if (!row || row.appName !== appName || row.userId !== userId) return undefined;
    return { id: sessionId, appName, userId, state: structuredClone(row.state), events: [...row.events], lastUpdateTime: row.lastUpdateTime };
  }

  async listSessions({ appName, userId }: ListSessionsRequest): Promise<ListSessionsResponse> {
    const sessions: Session[] = [];
    for (const [id, row] of this.rows) if (row.appName === appName && row.userId === userId) sessions.push({ id, appName, userId, state: {}, events: [], lastUpdateTime: row.lastUpdateTime });
    // ADK 2.0 reports pages; one page holds them all here.
    const response = { sessions, page: 1, limit: sessions.length, totalItems: sessions.length, totalPages: 1 };
    return response;
  }

  async deleteSession({ sessionId }: DeleteSessionRequest): Promise<void> {
    this.rows.delete(sessionId);
  }

  override async appendEvent({ session, event }: AppendEventRequest): Promise<Event> {
    const applied = await super.appendEvent({ session, event });
    if (event.partial) return applied;
    const row = this.rows.get(session.id)!;
    row.events.push(applied);
    Object.assign(row.state, applied.actions?.stateDelta ?? {});
    row.lastUpdateTime = applied.timestamp;
    return applied;
  }
}

const noteOrder = new FunctionTool({
  name: 'note_order',
  description: 'Notes the order the user is asking about.',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }, toolContext?: Context) => {
    toolContext!.state.set('last_order', orderId);
    toolContext!.state.set('temp:lookup', `looking up ${orderId}`);
    return { noted: orderId };
  },
});

const agent = new LlmAgent({ name: 'orders_agent', model: 'gemini-2.5-flash', instruction: 'Note the order, then answer.', tools: [noteOrder] });

export async function main(): Promise<void> {
  const sessionService = new MapSessionService();
  const runner = new Runner({ agent, appName: 'orders_app', sessionService });
  const session = await sessionService.createSession({ appName: 'orders_app', userId: 'ana', state: { plan: 'pro' } });
  const [ask] = script.userMessages;
  for await (const event of runner.runAsync({ userId: 'ana', sessionId: session.id, newMessage: createUserContent(ask!) })) {
    if (isFinalResponse(event) && event.content?.parts?.[0]?.text) console.log(`[${event.author}] ${event.content.parts[0].text}`);
  }
  const stored = (await sessionService.getSession({ appName: 'orders_app', userId: 'ana', sessionId: session.id }))!;
  console.log(`Stored state: ${JSON.stringify(stored.state)}`);
  console.log(`Stored events: ${stored.events.map((event) => event.author).join(', ')}`);
  console.log(`Stored deltas: ${JSON.stringify(stored.events.map((event) => event.actions?.stateDelta ?? {}))}`);
  const again = await sessionService.getOrCreateSession({ appName: 'orders_app', userId: 'ana', sessionId: session.id });
  console.log(`getOrCreateSession of an existing id: ${again.id} with ${again.events.length} events`);
  const fresh = await sessionService.getOrCreateSession({ appName: 'orders_app', userId: 'ana', sessionId: 'chosen', state: { plan: 'free' } });
  console.log(`getOrCreateSession of a new id: ${fresh.id} with state ${JSON.stringify(fresh.state)}`);
  const made = await sessionService.getOrCreateSession({ appName: 'orders_app', userId: 'ana' });
  console.log(`getOrCreateSession without an id: ${made.id}; sessions: ${(await sessionService.listSessions({ appName: 'orders_app', userId: 'ana' })).sessions.length}`);
}

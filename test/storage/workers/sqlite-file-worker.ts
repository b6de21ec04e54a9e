/**
 * A child process for the driver tests, run under Node 20 or Node 24: opens a
 * SQLite file with the driver asked for (or the one this process prefers),
 * appends one user message to session "s" (creating it first when asked),
 * adds the session to memory, and prints one JSON line: the driver used, the
 * stored session, and what a memory search for `query` finds.
 */
import { createEvent } from "../../../src/events/event.js";
import { getText } from "../../../src/content/content.js";
import { openSqliteDatabase, SqliteMemoryService, SqliteSessionService, type SqliteDriverName } from "../../../src/sqlite/index.js";

const options = JSON.parse(process.argv[2]!) as { path: string; driver?: SqliteDriverName; create?: boolean; say?: string; query: string };
const database = openSqliteDatabase({ path: options.path, driver: options.driver });
const sessionService = new SqliteSessionService({ database });
const memoryService = new SqliteMemoryService({ database });
const key = { appName: "files", userId: "u", sessionId: "s" };

if (options.create) await sessionService.createSession({ ...key, state: { "user:name": "Ada", turns: 0 } });
if (options.say !== undefined) {
  const session = (await sessionService.getSession(key))!;
  const turns = (session.state.turns as number) + 1;
  const event = createEvent({ invocationId: `turn${turns}`, author: "user", content: { role: "user", parts: [{ text: options.say }] }, actions: { stateDelta: { turns, [`by:${database.driver}`]: true } } });
  await sessionService.appendEvent({ session, event });
  await memoryService.addSessionToMemory(session);
}
const stored = (await sessionService.getSession(key))!;
const { memories } = await memoryService.searchMemory({ appName: key.appName, userId: key.userId, query: options.query });
process.stdout.write(`${JSON.stringify({ driver: database.driver, node: process.version, state: stored.state, said: stored.events.map((event) => getText(event.content)), found: memories.map((memory) => getText(memory.content)) })}\n`);
database.close();

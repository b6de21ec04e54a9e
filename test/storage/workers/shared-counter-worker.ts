/**
 * A child process for the shared-state test: increments the user's `user:counter` `count` times through its
 * own session of that user, the way an app would (read the counter from the session, append an event whose
 * delta sets it one higher). On SharedStateConflictError, the other process changed the counter since this
 * session was read: it reloads the session and tries that increment again. Prints one JSON line at the end
 * with how many increments it stored and how many conflicts it met.
 */
import { createEvent, createSessionService, SharedStateConflictError } from "./worker-imports.js";

const options = JSON.parse(process.argv[2]!) as { uri: string; appName: string; userId: string; sessionId: string; count: number };
const service = await createSessionService(options.uri);
const key = { appName: options.appName, userId: options.userId, sessionId: options.sessionId };
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
let session = (await service.getSession(key))!;
print({ ready: true });
await new Promise((resolve) => process.stdin.once("data", resolve));
// A stdin still open would keep this process alive after its last append.
process.stdin.destroy();

let conflicts = 0;
for (let index = 0; index < options.count; index++) {
  for (;;) {
    const counter = (session.state["user:counter"] as number | undefined) ?? 0;
    // Work between the read and the write, as a tool or a model call would do: without it SQLite's
    // synchronous appends let one process finish its burst before the other starts, and they rarely meet.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
    const event = createEvent({ invocationId: `${options.sessionId}-${index}`, author: "user", actions: { stateDelta: { "user:counter": counter + 1 } } });
    try {
      await service.appendEvent({ session, event });
      break;
    } catch (error) {
      if (!(error instanceof SharedStateConflictError)) throw error;
      conflicts++;
      session = (await service.getSession(key))!;
    }
  }
}
print({ done: options.count, conflicts });
await service.close();

/**
 * A child process for the storage tests: appends events to one session through
 * the service named by a URI and prints one JSON line per outcome, so the
 * parent can compare what it was told with what was stored.
 *   mode "race":  `count` appends, keeping its copy until it is stale, then reloading.
 *   mode "crash": appends until it is killed.
 */
import { createEvent, createSessionService, StaleSessionError, userMessage } from "./worker-imports.js";

const options = JSON.parse(process.argv[2]!) as {
  uri: string;
  appName: string;
  userId: string;
  sessionId: string;
  writer: string;
  mode: "race" | "crash";
  count?: number;
  /** Wait for a line on stdin before appending, so racing workers start together. */
  waitForGo?: boolean;
};
const service = await createSessionService(options.uri);
const key = { appName: options.appName, userId: options.userId, sessionId: options.sessionId };
let session = (await service.getSession(key))!;
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
print({ ready: true });
if (options.waitForGo) {
  await new Promise((resolve) => process.stdin.once("data", resolve));
  // A stdin still open would keep this process alive after its last append.
  process.stdin.destroy();
}

for (let index = 0; options.mode === "crash" || index < options.count!; index++) {
  const id = `${options.writer}-${index}`;
  const event = createEvent({
    id,
    invocationId: options.writer,
    author: "user",
    content: userMessage(`message ${id} `.repeat(1 + (index % 7))),
    actions: { stateDelta: { [id]: index, last: id, [`user:${options.writer}`]: index, "app:last": id } },
  });
  try {
    await service.appendEvent({ session, event });
    print({ stored: id });
  } catch (error) {
    if (!(error instanceof StaleSessionError)) throw error;
    print({ rejected: id });
    session = (await service.getSession(key))!;
  }
}
await service.close();

/**
 * A child process for the resume test. Phase "start": a run whose tool never
 * finishes (the parent kills the process while it waits). Phase "resume": a new
 * Runner over the same SQLite file continues the session; prints what the model
 * was sent and what was stored.
 */
import { FunctionTool, LlmAgent, Runner, createSessionService } from "../../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../../src/testing/index.js";

const options = JSON.parse(process.argv[2]!) as { uri: string; phase: "start" | "resume" };
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const sessionService = await createSessionService(options.uri);
const key = { appName: "resume", userId: "u", sessionId: "trip" };

const bookFlight = new FunctionTool({
  name: "book_flight",
  description: "Books a flight.",
  parameters: { type: "object", properties: { to: { type: "string" } } },
  execute: async (_args, context) => {
    context.state.set("booking", "started");
    print({ toolStarted: true });
    await new Promise((resolve) => setTimeout(resolve, 60_000)); // The parent kills this process while it waits here.
  },
});

if (options.phase === "start") {
  const model = new ScriptedModel([functionCallsResponse({ name: "book_flight", args: { to: "Lisbon" } })]);
  const runner = new Runner({ appName: "resume", agent: new LlmAgent({ name: "planner", model, tools: [bookFlight] }), sessionService });
  await sessionService.createSession({ ...key, state: { "user:home": "Paris" } });
  await collect(runner.runAsync({ userId: "u", sessionId: "trip", newMessage: userMessage("Book me a flight to Lisbon") }));
} else {
  const model = new ScriptedModel([textResponse("The booking was interrupted; shall I try again?")]);
  const runner = new Runner({ appName: "resume", agent: new LlmAgent({ name: "planner", model, tools: [bookFlight] }), sessionService });
  const events = await collect(runner.runAsync({ userId: "u", sessionId: "trip", newMessage: userMessage("Did it work?") }));
  const stored = await sessionService.getSession(key);
  print({ sent: model.requests[0]!.contents, events, stored });
  await sessionService.close();
}

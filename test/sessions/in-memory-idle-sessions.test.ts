/**
 * The in-memory store keeps only its most recently used sessions' events as objects; the others are packed
 * (their JSON, deflated) and come back on their next use. These tests show that a packed session comes back
 * exactly as it was stored, takes part in every rule of the store, and takes less memory.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { createEvent, FunctionTool, InMemorySessionService, LlmAgent, Runner, StaleSessionError, ToolsmithError, type Event } from "../../src/index.js";
import { functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

const key = (sessionId: string) => ({ appName: "app", userId: "u", sessionId });

/** Events of many kinds: text in several scripts, a call and its response, state and artifact deltas, metadata. */
function variedEvents(index: number): Event[] {
  return [
    createEvent({ invocationId: "i1", author: "user", content: { role: "user", parts: [{ text: `héllo ${index} — 你好 🙂 \u{1F600}` }] }, actions: { stateDelta: { count: index, nested: { list: [1, "two", null, true] } } } }),
    createEvent({ invocationId: "i1", author: "agent", content: { role: "model", parts: [{ functionCall: { id: `call-${index}`, name: "look", args: { q: "x".repeat(index % 50) } } }] }, longRunningToolIds: [`call-${index}`] }),
    createEvent({ invocationId: "i1", author: "agent", content: { role: "user", parts: [{ functionResponse: { id: `call-${index}`, name: "look", response: { found: [index, index + 1] } } }] }, actions: { artifactDelta: { "a.txt": 0 } } }),
    createEvent({ invocationId: "i1", author: "agent", content: { role: "model", parts: [{ text: "done" }] }, customMetadata: { score: 0.5 }, usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2 } }),
  ];
}

async function fill(service: InMemorySessionService, count: number) {
  for (let index = 0; index < count; index++) {
    const session = await service.createSession({ ...key(`s${index}`), state: { born: index } });
    for (const event of variedEvents(index)) await service.appendEvent({ session, event });
  }
}

describe("InMemorySessionService with idle sessions packed", () => {
  it("gives back each idle session exactly as it was stored: events, state and update time", async () => {
    const live = new InMemorySessionService({ liveSessions: 1_000 });
    const packing = new InMemorySessionService({ liveSessions: 2 });
    await fill(live, 30);
    await fill(packing, 30);
    for (let index = 0; index < 30; index++) {
      const expected = (await live.getSession(key(`s${index}`)))!;
      const actual = (await packing.getSession(key(`s${index}`)))!;
      expect(JSON.parse(JSON.stringify(actual.events.map(({ id, timestamp, ...rest }) => rest)))).toEqual(JSON.parse(JSON.stringify(expected.events.map(({ id, timestamp, ...rest }) => rest))));
      expect(actual.state).toEqual(expected.state);
      expect(actual.events.map((event) => event.actions.stateDelta)).toEqual(expected.events.map((event) => event.actions.stateDelta));
    }
    // Read twice, in another order: still the same.
    const first = (await packing.getSession(key("s0")))!;
    await packing.getSession(key("s29"));
    await packing.getSession(key("s28"));
    expect((await packing.getSession(key("s0")))!).toEqual(first);
  });

  it("appends to a session that was idle, in order, and still refuses a stale copy of it", async () => {
    const service = new InMemorySessionService({ liveSessions: 1 });
    const session = await service.createSession(key("a"));
    await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", content: { role: "user", parts: [{ text: "one" }] } }) });
    const stale = (await service.getSession(key("a")))!;
    await service.createSession(key("b")); // "a" is packed now
    await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", content: { role: "user", parts: [{ text: "two" }] } }) });
    await service.createSession(key("c"));
    await expect(service.appendEvent({ session: stale, event: createEvent({ invocationId: "i", author: "user" }) })).rejects.toBeInstanceOf(StaleSessionError);
    const stored = (await service.getSession(key("a")))!;
    expect(stored.events.map((event) => event.content?.parts?.[0]?.text)).toEqual(["one", "two"]);
  });

  it("keeps an event JSON cannot encode as objects: the session is never packed and nothing is lost", async () => {
    const service = new InMemorySessionService({ liveSessions: 1 });
    const session = await service.createSession(key("odd"));
    const event = createEvent({ invocationId: "i", author: "agent", customMetadata: { big: 10n as unknown as number } });
    await service.appendEvent({ session, event });
    for (let index = 0; index < 5; index++) await service.createSession(key(`other${index}`));
    const stored = (await service.getSession(key("odd")))!;
    expect(stored.events[0]!.customMetadata).toEqual({ big: 10n });
  });

  it("runs conversations across more sessions than it keeps live, each resuming its own history", async () => {
    const echo = new FunctionTool({ name: "echo", description: "Echoes.", parameters: { type: "object", properties: { i: { type: "number" } } }, execute: (args) => args });
    const steps = Array.from({ length: 40 }, (_, index) => [functionCallsResponse({ name: "echo", args: { i: index } }), textResponse(`answer ${index}`)]).flat();
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model: new ScriptedModel(steps), tools: [echo] }), sessionService: new InMemorySessionService({ liveSessions: 3 }) });
    for (let index = 0; index < 10; index++) await runner.sessionService.createSession(key(`c${index}`));
    // Two turns in each of ten sessions, interleaved, with three kept live.
    for (let turn = 0; turn < 2; turn++) {
      for (let index = 0; index < 10; index++) for await (const _event of runner.runAsync({ userId: "u", sessionId: `c${index}`, newMessage: userMessage(`turn ${turn} of c${index}`) }));
    }
    for (let index = 0; index < 10; index++) {
      const events = (await runner.sessionService.getSession(key(`c${index}`)))!.events;
      expect(events.filter((event) => event.author === "user").map((event) => event.content?.parts?.[0]?.text)).toEqual([`turn 0 of c${index}`, `turn 1 of c${index}`]);
      expect(events).toHaveLength(8);
    }
  });

  it("takes a fraction of the memory for idle sessions (figures printed)", async () => {
    // A collector to call, so the figures count what stays reachable and not garbage.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    // Twice, with a pause between: zlib's handles are let go by finalizers that run after a collection.
    const settle = async () => {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
      gc();
    };
    const measure = async (liveSessions: number) => {
      await settle();
      const before = process.memoryUsage();
      const service = new InMemorySessionService({ liveSessions });
      await fill(service, 2_000);
      await settle();
      const after = process.memoryUsage();
      const bytes = (after.heapUsed + after.external - before.heapUsed - before.external) / 2_000;
      return { bytes, service };
    };
    const live = await measure(10_000);
    const packed = await measure(1);
    console.log(`heap per session of 4 varied events: ${live.bytes.toFixed(0)} B live, ${packed.bytes.toFixed(0)} B packed`);
    expect(packed.bytes).toBeLessThan(live.bytes / 2);
    expect(live.service).toBeDefined();
  });

  it("refuses a liveSessions that is not a whole number of at least 1, saying what to pass", () => {
    for (const liveSessions of [0, -1, 1.5, Number.NaN]) {
      expect(() => new InMemorySessionService({ liveSessions })).toThrowError(ToolsmithError);
      try {
        new InMemorySessionService({ liveSessions });
      } catch (error) {
        expect((error as ToolsmithError).code).toBe("INVALID_SESSION_STORE_OPTION");
        expect((error as Error).message).toContain("Leave it out for 1,000");
      }
    }
  });
});

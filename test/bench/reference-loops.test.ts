/** The benchmarks' reference loops (bench/) do the work they are measured for: the figures are of real runs. */
import { describe, expect, it } from "vitest";
import { floor } from "../../bench/floor-framework.js";
import { leastAdk } from "../../bench/least-adk-framework.js";

describe("the least ADK-shaped loop of bench/", () => {
  it("stores each turn's user message, tool call, tool result and answer as events with ids, times and actions", async () => {
    const sessions = (await leastAdk.sessions(3)) as Map<string, { events: Array<{ id: string; invocationId: string; author: string; timestamp: number; content?: { parts?: unknown[] }; actions: object }> }>;
    expect(sessions.size).toBe(3);
    const ids = new Set<string>();
    for (const session of sessions.values()) {
      expect(session.events.map((event) => event.author)).toEqual(["user", "agent", "agent", "agent"]);
      const [, call, result] = session.events;
      const callPart = call!.content!.parts![0] as { functionCall: { id: string; name: string; args: { i: number } } };
      expect(result!.content!.parts).toEqual([{ functionResponse: { id: callPart.functionCall.id, name: "echo", response: { i: callPart.functionCall.args.i } } }]);
      expect(new Set(session.events.map((event) => event.invocationId)).size).toBe(1);
      for (const event of session.events) {
        ids.add(event.id);
        expect(event.timestamp).toBeGreaterThan(0);
        expect(event.actions).toEqual({ stateDelta: {}, artifactDelta: {} });
      }
    }
    expect(ids.size).toBe(12);
  });

  it("runs a conversation's model turns and a response's calls concurrently, as the frameworks do", async () => {
    expect(await leastAdk.conversation(10)).toEqual({ modelCalls: 20 });
    const started = performance.now();
    await leastAdk.parallelCalls(50, 20);
    expect(performance.now() - started).toBeLessThan(50 * 20);
  });
});

describe("the floor of bench/", () => {
  it("keeps each session's four events, the tool's result answering its call", async () => {
    const sessions = (await floor.sessions(2)) as Map<string, Array<{ author: string; parts: Array<Record<string, { id?: string; response?: unknown; args?: unknown }>> }>>;
    for (const events of sessions.values()) {
      expect(events.map((event) => event.author)).toEqual(["user", "agent", "agent", "agent"]);
      expect(events[2]!.parts[0]!.functionResponse).toMatchObject({ id: events[1]!.parts[0]!.functionCall!.id, response: events[1]!.parts[0]!.functionCall!.args });
    }
  });
});

import { describe, expect, it } from "vitest";
import { createEvent, createEventActions, isFinalResponse } from "../../src/index.js";
import { compactEventActions, mergeEventActions } from "../../src/events/event-actions.js";
import { EVENT_ID_LENGTH, newEventId, newId, randomHex } from "../../src/events/new-id.js";
import { functionCallsResponse, textResponse } from "../../src/testing/index.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EVENT_ID = /^[A-Za-z0-9]{12}$/;

describe("newId", () => {
  it("is a version 4 UUID, with the prefix in front when given", () => {
    expect(newId()).toMatch(UUID_V4);
    const prefixed = newId("e-");
    expect(prefixed.startsWith("e-")).toBe(true);
    expect(prefixed.slice(2)).toMatch(UUID_V4);
  });

  it("does not repeat over many ids, across refills of its random buffer", () => {
    const ids = new Set(Array.from({ length: 5_000 }, () => newId()));
    expect(ids.size).toBe(5_000);
  });

  it("gives each id its own string, unchanged by later calls", () => {
    const first = newId("adk-");
    const copy = `${first}`;
    for (let index = 0; index < 300; index++) newId("adk-");
    expect(first).toBe(copy);
  });
});

describe("newEventId", () => {
  it("is 12 letters and digits, each character drawn evenly from the 62", () => {
    const counts = new Map<string, number>();
    const ids = 20_000;
    for (let index = 0; index < ids; index++) {
      const id = newEventId();
      expect(id).toMatch(EVENT_ID);
      for (const character of id) counts.set(character, (counts.get(character) ?? 0) + 1);
    }
    // 240,000 characters: about 3,871 of each, with a standard deviation near 61. Every byte mapped by `% 62`
    // would give the first eight characters a fifth more (13 deviations); eight either way is far beyond chance.
    const expected = (ids * EVENT_ID_LENGTH) / 62;
    const deviation = Math.sqrt(expected * (1 - 1 / 62));
    const furthest = Math.max(...[...counts.values()].map((count) => Math.abs(count - expected) / deviation));
    console.log(`${ids} event ids: ${counts.size} characters used, the furthest ${furthest.toFixed(2)} standard deviations from even`);
    expect(counts.size).toBe(62);
    expect(furthest).toBeLessThan(8);
  });

  it("does not repeat over many ids, across refills of the random pool shared with UUIDs", () => {
    const seen = new Set<string>();
    for (let index = 0; index < 50_000; index++) seen.add(newEventId()).add(newId());
    expect(seen.size).toBe(100_000);
  });

  it("gives each id its own string, unchanged by later calls", () => {
    const first = newEventId();
    const copy = `${first}`;
    for (let index = 0; index < 300; index++) newEventId();
    expect(first).toBe(copy);
  });
});

describe("createEvent", () => {
  it("fills in a fresh id, the current time and empty actions", () => {
    const before = Date.now();
    const event = createEvent({ invocationId: "inv", author: "user" });
    expect(event.id).toMatch(EVENT_ID);
    expect(event.timestamp).toBeGreaterThanOrEqual(before);
    expect(event.timestamp).toBeLessThanOrEqual(Date.now());
    expect(event.actions).toEqual({ stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} });
    expect(createEvent({ invocationId: "inv", author: "user" }).id).not.toBe(event.id);
  });

  it("keeps a given id and timestamp", () => {
    expect(createEvent({ invocationId: "inv", author: "a", id: "fixed", timestamp: 42 })).toMatchObject({ id: "fixed", timestamp: 42 });
  });

  it("copies the given actions' records, so changing the event's leaves the caller's alone", () => {
    const stateDelta = { a: 1 };
    const event = createEvent({ invocationId: "inv", author: "a", actions: { stateDelta, escalate: true } });
    event.actions.stateDelta.b = 2;
    expect(stateDelta).toEqual({ a: 1 });
    expect(event.actions).toMatchObject({ stateDelta: { a: 1, b: 2 }, escalate: true, artifactDelta: {} });
  });
});

describe("isFinalResponse", () => {
  const event = (init: Partial<Parameters<typeof createEvent>[0]>) => createEvent({ invocationId: "i", author: "agent", ...init });

  it("is true for a complete text answer and false while it streams", () => {
    expect(isFinalResponse(event(textResponse("done")))).toBe(true);
    expect(isFinalResponse(event({ ...textResponse("do"), partial: true }))).toBe(false);
  });

  it("is false for tool calls and tool results the model will summarise", () => {
    expect(isFinalResponse(event(functionCallsResponse({ name: "t", args: {} })))).toBe(false);
    expect(isFinalResponse(event({ content: { role: "user", parts: [{ functionResponse: { name: "t", response: {} } }] } }))).toBe(false);
  });

  it("is true for a tool result that skips summarisation, a pause for a long-running call, and an error", () => {
    expect(isFinalResponse(event({ content: { role: "user", parts: [{ functionResponse: { name: "t", response: {} } }] }, actions: { skipSummarization: true } }))).toBe(true);
    expect(isFinalResponse(event({ ...functionCallsResponse({ name: "t", args: {}, id: "c1" }), longRunningToolIds: ["c1"] }))).toBe(true);
    expect(isFinalResponse(event({ errorCode: "MODEL_ERROR", errorMessage: "boom" }))).toBe(true);
    expect(isFinalResponse(event({ ...functionCallsResponse({ name: "t", args: {} }), longRunningToolIds: [] }))).toBe(false);
  });
});

describe("mergeEventActions", () => {
  it("merges records in call order, the later call winning a key, and keeps any flag set", () => {
    const merged = mergeEventActions([
      createEventActions({ stateDelta: { a: 1, b: 1 }, artifactDelta: { "x.txt": 0 }, skipSummarization: true }),
      createEventActions({ stateDelta: { b: 2 }, artifactDelta: { "x.txt": 1, "y.txt": 0 }, escalate: true, transferToAgent: "first" }),
      createEventActions({ requestedToolConfirmations: { c1: { confirmed: false, hint: "sure?" } }, transferToAgent: "second" }),
    ]);
    expect(merged).toEqual({
      stateDelta: { a: 1, b: 2 },
      artifactDelta: { "x.txt": 1, "y.txt": 0 },
      requestedAuthConfigs: {},
      requestedToolConfirmations: { c1: { confirmed: false, hint: "sure?" } },
      skipSummarization: true,
      escalate: true,
      transferToAgent: "second",
    });
  });

  it("gives empty actions for no sources, and leaves the sources unchanged", () => {
    expect(mergeEventActions([])).toEqual(createEventActions());
    const source = createEventActions({ stateDelta: { a: 1 } });
    const merged = mergeEventActions([source, createEventActions({ stateDelta: { a: 2 } })]);
    expect(source.stateDelta).toEqual({ a: 1 });
    expect(merged.stateDelta).not.toBe(source.stateDelta);
  });
});

describe("compactEventActions", () => {
  it("shares one frozen object for actions that carry nothing", () => {
    const first = compactEventActions(createEventActions());
    const second = compactEventActions(createEventActions());
    expect(first).toBe(second);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual(createEventActions());
  });

  it("keeps what the actions carry and shares only the empty records", () => {
    const compacted = compactEventActions(createEventActions({ stateDelta: { a: 1 } }));
    expect(compacted).toEqual({ stateDelta: { a: 1 }, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} });
    const other = compactEventActions(createEventActions({ artifactDelta: { "f.txt": 0 } }));
    expect(other.stateDelta).toBe(compacted.artifactDelta);
    expect(Object.isFrozen(other.stateDelta)).toBe(true);
  });

  it("keeps flags, even false ones, on actions with empty records", () => {
    expect(compactEventActions(createEventActions({ escalate: false }))).toEqual({ ...createEventActions(), escalate: false });
    expect(compactEventActions(createEventActions({ transferToAgent: "helper" })).transferToAgent).toBe("helper");
    expect(compactEventActions(createEventActions({ skipSummarization: true })).skipSummarization).toBe(true);
  });
});

describe("randomHex", () => {
  it("gives trace and span ids in OpenTelemetry's format, none repeated across many refills of the shared pool", () => {
    const seen = new Set<string>();
    // 20,000 of each size, interleaved with UUIDs, crosses the pool's refill point many times.
    for (let index = 0; index < 20_000; index++) {
      const traceId = randomHex(16);
      const spanId = randomHex(8);
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spanId).toMatch(/^[0-9a-f]{16}$/);
      seen.add(traceId).add(spanId).add(newId());
    }
    expect(seen.size).toBe(60_000);
  });
});

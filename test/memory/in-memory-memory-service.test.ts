import { describe, expect, it } from "vitest";
import { createEvent, getText, InMemoryMemoryService, type Session } from "../../src/index.js";
import { DEFAULT_MEMORY_LIMIT, memoriesOf, searchWords } from "../../src/memory/memory-text.js";
import { sessionSaying } from "../support/memory-service-conformance.js";

const texts = async (service: InMemoryMemoryService, query: string, scope: { appName?: string; userId?: string; limit?: number } = {}) =>
  (await service.searchMemory({ appName: scope.appName ?? "app", userId: scope.userId ?? "u", query, limit: scope.limit })).memories.map((memory) => getText(memory.content));

describe("searchWords", () => {
  it("lower-cases and splits on anything but letters and digits, in any script", () => {
    expect(searchWords("Hello, World! It's 2024.")).toEqual(["hello", "world", "it", "s", "2024"]);
    expect(searchWords("Grüße aus Köln — 東京 café")).toEqual(["grüße", "aus", "köln", "東京", "café"]);
    expect(searchWords("  ...  ")).toEqual([]);
  });
});

describe("memoriesOf", () => {
  it("keeps events with text, as entries with author and ISO time, and leaves out the rest", () => {
    const session: Session = {
      id: "s",
      appName: "app",
      userId: "u",
      state: {},
      lastUpdateTime: 0,
      events: [
        createEvent({ invocationId: "i", author: "user", content: { role: "user", parts: [{ text: "plan a trip" }] }, timestamp: Date.UTC(2024, 0, 2, 3, 4, 5) }),
        createEvent({ invocationId: "i", author: "agent", content: { role: "model", parts: [{ functionCall: { name: "book", args: {} } }] } }),
        createEvent({ invocationId: "i", author: "agent", content: { role: "model", parts: [{ text: "   " }] } }),
        createEvent({ invocationId: "i", author: "agent" }),
        createEvent({ invocationId: "i", author: "agent", content: { role: "model", parts: [{ text: "Booked " }, { text: "Lisbon" }] }, timestamp: 0 }),
      ],
    };
    const memories = memoriesOf(session);
    expect(memories.map((memory) => memory.text)).toEqual(["plan a trip", "Booked Lisbon"]);
    expect(memories[0]).toEqual({
      eventId: session.events[0]!.id,
      text: "plan a trip",
      entry: { content: session.events[0]!.content, author: "user", timestamp: "2024-01-02T03:04:05.000Z" },
    });
    expect(memories[1]!.entry.timestamp).toBe("1970-01-01T00:00:00.000Z");
  });
});

describe("InMemoryMemoryService", () => {
  it("returns at most ten memories unless told otherwise", async () => {
    const service = new InMemoryMemoryService();
    await service.addSessionToMemory(sessionSaying({ texts: Array.from({ length: 15 }, (_, index) => `note ${index} about otters`) }));
    expect(DEFAULT_MEMORY_LIMIT).toBe(10);
    expect(await texts(service, "otters")).toHaveLength(10);
    expect(await texts(service, "otters", { limit: 15 })).toHaveLength(15);
    expect(await texts(service, "otters", { limit: 3 })).toHaveLength(3);
  });

  it("matches whole words only, in any case", async () => {
    const service = new InMemoryMemoryService();
    await service.addSessionToMemory(sessionSaying({ texts: ["The CATALOG arrived", "a Cat sat"] }));
    expect(await texts(service, "cat")).toEqual(["a Cat sat"]);
    expect(await texts(service, "catalog")).toEqual(["The CATALOG arrived"]);
    expect(await texts(service, "CAT!")).toEqual(["a Cat sat"]);
  });

  it("counts each query word once, however often it is repeated", async () => {
    const service = new InMemoryMemoryService();
    await service.addSessionToMemory(sessionSaying({ texts: ["rain rain rain", "rain and wind"] }));
    expect(await texts(service, "rain rain rain wind")).toEqual(["rain and wind", "rain rain rain"]);
  });

  it("keeps each session's memories when another session of the user is added, and replaces only the re-added one", async () => {
    const service = new InMemoryMemoryService();
    await service.addSessionToMemory(sessionSaying({ id: "one", texts: ["first about gardens"] }));
    await service.addSessionToMemory(sessionSaying({ id: "two", texts: ["second about gardens"] }));
    await service.addSessionToMemory(sessionSaying({ id: "one", texts: ["first, rewritten, about gardens"] }));
    expect((await texts(service, "gardens")).sort()).toEqual(["first, rewritten, about gardens", "second about gardens"]);
  });

  it("forgets a session re-added with no text", async () => {
    const service = new InMemoryMemoryService();
    await service.addSessionToMemory(sessionSaying({ id: "gone", texts: ["about volcanoes"] }));
    await service.addSessionToMemory(sessionSaying({ id: "gone", texts: [] }));
    expect(await texts(service, "volcanoes")).toEqual([]);
  });

  it("keeps ids that contain / apart: app a/b, user c is not app a, user b/c", async () => {
    const service = new InMemoryMemoryService();
    await service.addSessionToMemory(sessionSaying({ appName: "a/b", userId: "c", texts: ["secret of a/b"] }));
    expect(await texts(service, "secret", { appName: "a", userId: "b/c" })).toEqual([]);
    expect(await texts(service, "secret", { appName: "a/b", userId: "c" })).toEqual(["secret of a/b"]);
  });
});

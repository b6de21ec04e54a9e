import { describe, expect, it } from "vitest";
import { createEvent, getText, type MemoryService, type Session } from "../../src/index.js";
import { expectRequestRefusals } from "./refusal.js";

/** Opens a service over empty storage; closed after each test. */
export type OpenMemoryService = () => Promise<MemoryService & { close(): Promise<void> }>;

let sessionCounter = 0;

/** A session whose events say the given texts, alternately from the user and the model. */
export function sessionSaying(init: { appName?: string; userId?: string; id?: string; texts: string[] }): Session {
  return {
    id: init.id ?? `memory-session-${++sessionCounter}`,
    appName: init.appName ?? "app",
    userId: init.userId ?? "u",
    state: {},
    lastUpdateTime: 0,
    events: init.texts.map((text, index) =>
      createEvent({ invocationId: "i", author: index % 2 ? "agent" : "user", content: { role: index % 2 ? "model" : "user", parts: [{ text }] }, timestamp: 1_700_000_000_000 + index }),
    ),
  };
}

/** The behaviour every memory service shares, run against each implementation. */
export function describeMemoryServiceConformance(name: string, open: OpenMemoryService): void {
  describe(`${name} (memory service conformance)`, () => {
    async function withService(test: (service: MemoryService) => Promise<void>) {
      const service = await open();
      try {
        await test(service);
      } finally {
        await service.close();
      }
    }
    const texts = async (service: MemoryService, query: string, scope: { appName?: string; userId?: string; limit?: number } = {}) =>
      (await service.searchMemory({ appName: scope.appName ?? "app", userId: scope.userId ?? "u", query, limit: scope.limit })).memories.map((memory) => getText(memory.content));

    it("refuses requests it cannot read with the error a user sees, and keeps what it remembered", () =>
      withService(async (service) => {
        await service.addSessionToMemory(sessionSaying({ texts: ["the launch is on tuesday"] }));
        const before = await service.searchMemory({ appName: "app", userId: "u", query: "launch" });
        expect(before.memories).toHaveLength(1);
        const cases: [string, unknown, string][] = [
          ["searchMemory", { appName: "app", query: "launch" }, "searchMemory needs userId as a non-empty string; it got nothing."],
          ["searchMemory", { appName: "app", userId: "u" }, "searchMemory needs query, the text to look for; it got nothing."],
          ["searchMemory", { appName: "app", userId: "u", query: "launch", limit: -1 }, "searchMemory's limit is how many memories to return at most, a whole number; it got -1."],
          ["searchMemory", undefined, "searchMemory takes { appName, userId, query }; it got nothing."],
          ["addSessionToMemory", { ...sessionSaying({ texts: ["lost"] }), userId: undefined }, "addSessionToMemory takes a session, as getSession gives it: its userId is nothing."],
          ["addSessionToMemory", { ...sessionSaying({ texts: ["lost"] }), events: "lost" }, 'addSessionToMemory takes a session, as getSession gives it: its events are "lost", not a list.'],
          ["addSessionToMemory", undefined, "addSessionToMemory takes a session, as getSession gives it; it got nothing."],
        ];
        await expectRequestRefusals(service, cases);
        expect(await service.searchMemory({ appName: "app", userId: "u", query: "launch" })).toEqual(before);
        expect((await service.searchMemory({ appName: "app", userId: "u", query: "lost" })).memories).toEqual([]);
      }));

    it("finds remembered events by their words, with author and time", () =>
      withService(async (service) => {
        await service.addSessionToMemory(sessionSaying({ texts: ["I drink espresso every morning", "Noted: espresso in the morning.", "My cat is called Miso"] }));
        expect((await texts(service, "espresso")).sort()).toEqual(["I drink espresso every morning", "Noted: espresso in the morning."]);
        expect(await texts(service, "cat")).toEqual(["My cat is called Miso"]);
        expect(await texts(service, "giraffe")).toEqual([]);
        const [memory] = (await service.searchMemory({ appName: "app", userId: "u", query: "Miso" })).memories;
        expect(memory).toEqual({ content: { role: "user", parts: [{ text: "My cat is called Miso" }] }, author: "user", timestamp: new Date(1_700_000_000_002).toISOString() });
      }));

    it("searches only the user's own memories in the app", () =>
      withService(async (service) => {
        await service.addSessionToMemory(sessionSaying({ userId: "alice", texts: ["alice likes tea"] }));
        await service.addSessionToMemory(sessionSaying({ userId: "bob", texts: ["bob likes tea"] }));
        await service.addSessionToMemory(sessionSaying({ appName: "other", userId: "alice", texts: ["other app tea"] }));
        expect(await texts(service, "tea", { userId: "alice" })).toEqual(["alice likes tea"]);
        expect(await texts(service, "tea", { userId: "bob" })).toEqual(["bob likes tea"]);
        expect(await texts(service, "tea", { userId: "carol" })).toEqual([]);
      }));

    it("ranks entries that hold more of the query's words first, and honours the limit", () =>
      withService(async (service) => {
        await service.addSessionToMemory(
          sessionSaying({ texts: ["the weather report for paris", "paris trip booked", "weather is fine", "paris weather and the paris museums report"] }),
        );
        const ranked = await texts(service, "paris weather report");
        expect(ranked).toHaveLength(4);
        expect(ranked.slice(0, 2).sort()).toEqual(["paris weather and the paris museums report", "the weather report for paris"]);
        expect(await texts(service, "paris weather report", { limit: 1 })).toHaveLength(1);
      }));

    it("replaces a session's entries when it is added again", () =>
      withService(async (service) => {
        const session = sessionSaying({ texts: ["first version about kites"] });
        await service.addSessionToMemory(session);
        await service.addSessionToMemory({ ...session, events: [...session.events, ...sessionSaying({ texts: ["kites again"] }).events] });
        expect((await texts(service, "kites")).sort()).toEqual(["first version about kites", "kites again"]);
      }));

    it("treats query syntax characters as plain text", () =>
      withService(async (service) => {
        await service.addSessionToMemory(sessionSaying({ texts: ["quotes and parentheses work"] }));
        expect(await texts(service, '"quotes" AND (parentheses OR NEAR* -work:')).toEqual(["quotes and parentheses work"]);
        expect(await texts(service, "  ?!  ")).toEqual([]);
      }));
  });
}

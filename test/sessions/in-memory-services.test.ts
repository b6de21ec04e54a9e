import { describe, expect, it } from "vitest";
import {
  createEvent,
  FunctionTool,
  InMemoryArtifactService,
  InMemorySessionService,
  InvalidArtifactNameError,
  LlmAgent,
  Runner,
  StaleSessionError,
  getFunctionResponses,
} from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

describe("InMemorySessionService", () => {
  it("refuses an append from a stale copy of the session and stores nothing from it", async () => {
    const service = new InMemorySessionService();
    const created = await service.createSession({ appName: "app", userId: "u" });
    const reader = (await service.getSession({ appName: "app", userId: "u", sessionId: created.id }))!;
    await service.appendEvent({ session: created, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { n: 1 } } }) });
    await expect(
      service.appendEvent({ session: reader, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { n: 2 } } }) }),
    ).rejects.toBeInstanceOf(StaleSessionError);
    const stored = await service.getSession({ appName: "app", userId: "u", sessionId: created.id });
    expect(stored!.state).toEqual({ n: 1 });
    expect(stored!.events).toHaveLength(1);
  });

  it("returns the newest events and pages session lists", async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession({ appName: "app", userId: "u", sessionId: "s0" });
    for (let index = 0; index < 5; index++) {
      await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", content: userMessage(`m${index}`) }) });
    }
    const recent = await service.getSession({ appName: "app", userId: "u", sessionId: "s0", config: { numRecentEvents: 2 } });
    expect(recent!.events.map((event) => event.content!.parts![0]!.text)).toEqual(["m3", "m4"]);
    for (let index = 1; index < 5; index++) await service.createSession({ appName: "app", userId: "u", sessionId: `s${index}` });
    const first = await service.listSessions({ appName: "app", userId: "u", pageSize: 3 });
    const second = await service.listSessions({ appName: "app", userId: "u", pageSize: 3, pageToken: first.nextPageToken });
    expect([...first.sessions, ...second.sessions].map((listed) => listed.id).sort()).toEqual(["s0", "s1", "s2", "s3", "s4"]);
    expect(second.nextPageToken).toBeUndefined();
    expect(first.sessions[0]!.events).toEqual([]);
  });

  it("gives each session its own state: sessions made without state share nothing once one of them writes", async () => {
    const service = new InMemorySessionService();
    const key = (sessionId: string) => ({ appName: "app", userId: "u", sessionId });
    const writer = await service.createSession(key("writer"));
    await service.createSession(key("quiet"));
    const seeded = await service.createSession({ ...key("seeded"), state: { kept: true } });
    await service.appendEvent({ session: writer, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { n: 1, "temp:t": 1 } } }) });
    await service.appendEvent({ session: writer, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { m: 2 } } }) });
    await service.appendEvent({ session: seeded, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { more: 1 } } }) });
    // A delta of shared keys only leaves the session's own state empty.
    const quiet = (await service.getSession(key("quiet")))!;
    await service.appendEvent({ session: quiet, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { "user:u1": 1 } } }) });
    expect((await service.getSession(key("writer")))!.state).toEqual({ n: 1, m: 2, "user:u1": 1 });
    expect((await service.getSession(key("quiet")))!.state).toEqual({ "user:u1": 1 });
    expect((await service.getSession(key("seeded")))!.state).toEqual({ kept: true, more: 1, "user:u1": 1 });
    // Shared records are made at their first key: the same user's next session sees it, another user's does not.
    expect((await service.createSession({ appName: "app", userId: "u" })).state).toEqual({ "user:u1": 1 });
    const stranger = await service.createSession({ appName: "app", userId: "other" });
    expect(stranger.state).toEqual({});
    await service.appendEvent({ session: stranger, event: createEvent({ invocationId: "i", author: "user", actions: { stateDelta: { "app:a": 1 } } }) });
    expect((await service.getSession(key("writer")))!.state).toEqual({ n: 1, m: 2, "user:u1": 1, "app:a": 1 });
  });

  it("keeps every session's events in order while appends move between sessions, short and long", async () => {
    // Sessions under 16 events have their lists copied to their exact length when another session is used.
    const service = new InMemorySessionService();
    const lengths = { a: 3, b: 15, c: 16, d: 40 };
    const sessions = new Map<string, Awaited<ReturnType<typeof service.createSession>>>();
    for (const id of Object.keys(lengths)) sessions.set(id, await service.createSession({ appName: "app", userId: "u", sessionId: id }));
    for (let step = 0; step < 40; step++) {
      for (const [id, length] of Object.entries(lengths)) {
        if (step >= length) continue;
        const session = (await service.getSession({ appName: "app", userId: "u", sessionId: id }))!;
        await service.appendEvent({ session, event: createEvent({ invocationId: "i", author: "user", content: userMessage(`${id}${step}`) }) });
      }
    }
    for (const [id, length] of Object.entries(lengths)) {
      const stored = (await service.getSession({ appName: "app", userId: "u", sessionId: id }))!;
      expect(stored.events.map((event) => event.content!.parts![0]!.text)).toEqual(Array.from({ length }, (_, step) => `${id}${step}`));
    }
  });
});

describe("artifacts and memory from a tool", () => {
  it("saves versions from 0, records artifactDelta, shares user: artifacts across sessions, and searches memory", async () => {
    const save = new FunctionTool({
      name: "save",
      description: "Saves.",
      parameters: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } } },
      execute: async ({ name, text }, context) => ({ version: await context.saveArtifact(name as string, { text: text as string }) }),
    });
    const recall = new FunctionTool({
      name: "recall",
      description: "Recalls.",
      execute: async (_args, context) => ({
        artifacts: await context.listArtifacts(),
        profile: (await context.loadArtifact("user:profile.txt"))?.text,
        memories: (await context.searchMemory("espresso")).memories.length,
      }),
    });
    const model = new ScriptedModel([
      functionCallsResponse({ name: "save", args: { name: "notes.txt", text: "v0" } }, { name: "save", args: { name: "user:profile.txt", text: "likes espresso" } }),
      functionCallsResponse({ name: "save", args: { name: "notes.txt", text: "v1" } }),
      textResponse("Saved. I remember you like espresso."),
      functionCallsResponse({ name: "recall" }),
      textResponse("done"),
    ]);
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "agent", model, tools: [save, recall] }) });
    const first = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(runner.runAsync({ userId: "u", sessionId: first.id, newMessage: userMessage("remember my coffee: espresso") }));
    expect(events[1]!.actions.artifactDelta).toEqual({ "notes.txt": 0, "user:profile.txt": 0 });
    expect(events[3]!.actions.artifactDelta).toEqual({ "notes.txt": 1 });
    await runner.memoryService.addSessionToMemory((await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: first.id }))!);

    const second = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const later = await collect(runner.runAsync({ userId: "u", sessionId: second.id, newMessage: userMessage("what do you know?") }));
    expect(getFunctionResponses(later[1]!.content)[0]!.response).toEqual({ artifacts: ["user:profile.txt"], profile: "likes espresso", memories: 2 });
  });

  it("rejects artifact names that could escape their root", async () => {
    const service = new InMemoryArtifactService();
    const key = { appName: "a", userId: "u", sessionId: "s" };
    for (const filename of ["../x", "/etc/passwd", "a/../../b", "user:../x", "C:\\x", ""]) {
      await expect(service.saveArtifact({ ...key, filename, artifact: { text: "x" } })).rejects.toBeInstanceOf(InvalidArtifactNameError);
    }
    expect(await service.listArtifactKeys(key)).toEqual([]);
  });
});

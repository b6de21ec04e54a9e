/**
 * ADK's `Runner.runEphemeral` (one turn in a session made for it and deleted after it, however the run ends) and
 * `runAsync`'s `customMetadata` (stored on the user's event). Side by side with ADK in
 * test/adk-compat/programs/30-ephemeral-run-and-metadata.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, InMemorySessionService, LlmAgent, Runner, isToolsmithError, type SessionService } from "../../src/index.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function runnerWith(steps: ConstructorParameters<typeof ScriptedModel>[0], sessionService: SessionService = new InMemorySessionService(), execute = ({ orderId }: { orderId: string }) => ({ orderId, status: "shipped" })) {
  const lookup = new FunctionTool({ name: "lookup_order", description: "Looks up an order.", parameters: z.object({ orderId: z.string() }), execute });
  const agent = new LlmAgent({ name: "support", model: new ScriptedModel(steps), tools: [lookup] });
  return new Runner({ appName: "app", agent, sessionService });
}

async function sessionsOf(service: SessionService, userId = "ana") {
  return (await service.listSessions({ appName: "app", userId })).sessions;
}

describe("runAsync's customMetadata", () => {
  it("is stored on the user's event only, with a message or with a state delta alone", async () => {
    const runner = runnerWith([textResponse("Hello."), textResponse("Noted.")]);
    const session = await runner.sessionService.createSession({ appName: "app", userId: "ana" });
    await collect(runner.runAsync({ userId: "ana", sessionId: session.id, newMessage: userMessage("hi"), customMetadata: { channel: "email", ticket: 42 } }));
    await collect(runner.runAsync({ userId: "ana", sessionId: session.id, stateDelta: { plan: "pro" }, customMetadata: { channel: "admin" } }));
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "ana", sessionId: session.id });
    expect(stored!.events.map((event) => [event.author, event.customMetadata ?? null])).toEqual([
      ["user", { channel: "email", ticket: 42 }],
      ["support", null],
      ["user", { channel: "admin" }],
      ["support", null],
    ]);
    expect(stored!.state.plan).toBe("pro");
  });

  it("is refused, with what to do, when the run stores no user event to carry it, and nothing is stored", async () => {
    const runner = runnerWith([]);
    const session = await runner.sessionService.createSession({ appName: "app", userId: "ana", state: { kept: true } });
    const error = await collect(runner.runAsync({ userId: "ana", sessionId: session.id, customMetadata: { channel: "email" } })).catch((caught: unknown) => caught);
    expect(isToolsmithError(error) && error.code).toBe("UNSUPPORTED_OPTION");
    expect((error as Error).message).toBe(
      "runAsync got customMetadata but no newMessage or stateDelta: customMetadata is stored on the user's event, which only a message or a state delta makes. Send it with the message.",
    );
    const stored = await runner.sessionService.getSession({ appName: "app", userId: "ana", sessionId: session.id });
    expect([stored!.events.length, stored!.state]).toEqual([0, { kept: true }]);
  });
});

describe("Runner.runEphemeral", () => {
  it("answers in a session of its own, which is gone after the run, with the user's state delta and metadata applied in it", async () => {
    const service = new InMemorySessionService();
    const runner = runnerWith([functionCallsResponse({ name: "lookup_order", args: { orderId: "1234" } }), textResponse("Order 1234 has shipped.")], service);
    const kept = await service.createSession({ appName: "app", userId: "ana" });
    const appended: Array<{ sessionId: string; customMetadata: unknown; stateDelta: unknown }> = [];
    const append = service.appendEvent.bind(service);
    service.appendEvent = (request) => {
      appended.push({ sessionId: request.session.id, customMetadata: request.event.customMetadata, stateDelta: request.event.actions.stateDelta });
      return append(request);
    };
    const events = await collect(runner.runEphemeral({ userId: "ana", newMessage: userMessage("Where is 1234?"), stateDelta: { locale: "fr" }, customMetadata: { channel: "widget" } }));
    expect(events.at(-1)!.content!.parts![0]!.text).toBe("Order 1234 has shipped.");
    expect(appended).toHaveLength(4);
    const ephemeralId = appended[0]!.sessionId;
    expect(ephemeralId).not.toBe(kept.id);
    expect(appended.every((entry) => entry.sessionId === ephemeralId)).toBe(true);
    expect(appended[0]).toMatchObject({ customMetadata: { channel: "widget" }, stateDelta: { locale: "fr" } });
    expect((await sessionsOf(service)).map((session) => session.id)).toEqual([kept.id]);
  });

  it("deletes its session when the caller stops reading after the first event, and when the run ends with an error event", async () => {
    const service = new InMemorySessionService();
    const stopped = runnerWith([functionCallsResponse({ name: "lookup_order", args: { orderId: "1" } }), textResponse("never read")], service);
    for await (const event of stopped.runEphemeral({ userId: "ana", newMessage: userMessage("go") })) {
      expect(event.author).toBe("support");
      break;
    }
    expect(await sessionsOf(service)).toEqual([]);

    const failing = runnerWith([new Error("model down")], service);
    const events = await collect(failing.runEphemeral({ userId: "ana", newMessage: userMessage("go") }));
    expect(events.at(-1)!.errorCode).toBe("MODEL_ERROR");
    expect(await sessionsOf(service)).toEqual([]);
  });

  it("leaves no session in a SQLite file, and the user's other sessions as they were", async () => {
    const folder = mkdtempSync(join(tmpdir(), "toolsmith-ephemeral-"));
    folders.push(folder);
    const service = new SqliteSessionService({ path: join(folder, "sessions.db") });
    const runner = runnerWith([textResponse("Hi Ana.")], service);
    const kept = await service.createSession({ appName: "app", userId: "ana", state: { plan: "pro" } });
    const events = await collect(runner.runEphemeral({ userId: "ana", newMessage: userMessage("hello") }));
    expect(events.map((event) => event.content?.parts?.[0]?.text)).toEqual(["Hi Ana."]);
    const left = await sessionsOf(service);
    expect(left.map((session) => session.id)).toEqual([kept.id]);
    expect((await service.getSession({ appName: "app", userId: "ana", sessionId: kept.id }))!.state).toEqual({ plan: "pro" });
    await service.close();
  });

  it("is cancelled through abortSignal as runAsync is, and still deletes its session", async () => {
    const service = new InMemorySessionService();
    const caller = new AbortController();
    const runner = runnerWith([functionCallsResponse({ name: "lookup_order", args: { orderId: "9" } }), textResponse("never")], service, ({ orderId }) => {
      caller.abort(new Error("the user left"));
      return { orderId, status: "unknown" };
    });
    const events = await collect(runner.runEphemeral({ userId: "ana", newMessage: userMessage("go"), abortSignal: caller.signal }));
    expect(events.some((event) => event.content?.parts?.[0]?.text === "never")).toBe(false);
    expect(await sessionsOf(service)).toEqual([]);
  });
});

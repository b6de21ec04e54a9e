/**
 * ADK's `DatabaseSessionService(connectionString)` and `getSessionServiceFromUri(uri)` on toolsmith: real SQLite
 * files and the test run's PostgreSQL, side by side with `@google/adk` 2.0's (MikroORM over SQLite), and every
 * connection string toolsmith cannot honour refused with what to use instead.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DatabaseSessionService, FunctionTool, getSessionServiceFromUri, InMemorySessionService, LlmAgent, Runner } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { drain, runOnBoth, type Framework } from "../adk-compat/side-by-side.js";
import { refusal } from "../support/refusal.js";
import { tempDir } from "../support/temp-dir.js";
import { freshDatabase, postgresMissing, postgresUrl, queryDatabase } from "../support/postgres.js";

const services: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
});

const newFolder = () => tempDir("toolsmith-services-from-uri-");

function keep<T extends { close(): Promise<void> }>(service: T): T {
  services.push(service);
  return service;
}

describe("DatabaseSessionService, side by side with @google/adk 2.0 over SQLite", () => {
  it("keeps a turn's events and state in the file, read back by a new service on the same file, as ADK's does", async () => {
    const { adk, toolsmith } = await runOnBoth([functionCallsResponseLike("remember", { colour: "teal" }), { content: { role: "model", parts: [{ text: "Noted." }] } }], async (f: Framework, model) => {
      const file = join(newFolder(), "sessions.db");
      const remember = new f.FunctionTool({
        name: "remember",
        description: "Remembers a colour.",
        parameters: z.object({ colour: z.string() }),
        execute: ({ colour }: { colour: string }, context: { state: { set(key: string, value: unknown): void } }) => {
          context.state.set("user:colour", colour);
          context.state.set("app:theme", "dark");
          context.state.set("last", colour);
          return { remembered: colour };
        },
      });
      const writer = new f.DatabaseSessionService(`sqlite://${file}`);
      const runner = new f.Runner({ appName: "shop", agent: new f.LlmAgent({ name: "keeper", model, tools: [remember] }), sessionService: writer });
      const session = await writer.createSession({ appName: "shop", userId: "ann", state: { visits: 1 } });
      const events = await drain(runner.runAsync({ userId: "ann", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "My colour is teal." }] } }));
      // A second service on the same file, as another process would open it.
      const reader = new f.DatabaseSessionService(`sqlite://${file}`);
      const stored = await reader.getSession({ appName: "shop", userId: "ann", sessionId: session.id });
      const other = await reader.createSession({ appName: "shop", userId: "ann" });
      for (const service of [writer, reader]) if (typeof service.close === "function") await service.close();
      return {
        runner,
        events,
        output: {
          file: existsSync(file),
          state: stored.state,
          otherState: other.state,
          stored: stored.events.map((event: { author: string; content?: { parts?: Array<Record<string, unknown>> } }) => `${event.author}: ${Object.keys(event.content?.parts?.[0] ?? {}).join()}`),
        },
      };
    });
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.output).toMatchObject({ file: true, state: { visits: 1, last: "teal", "user:colour": "teal", "app:theme": "dark" }, otherState: { "user:colour": "teal", "app:theme": "dark" } });
    expect(toolsmith.events).toEqual(adk.events);
  });

  it("gives getSessionServiceFromUri's services for memory:// and sqlite://, and refuses a scheme it lacks, as ADK's", async () => {
    const adk = await import("@google/adk");
    const file = join(newFolder(), "from-uri.db");
    expect(getSessionServiceFromUri("memory://")).toBeInstanceOf(InMemorySessionService);
    expect(adk.getSessionServiceFromUri("memory://")).toBeInstanceOf(adk.InMemorySessionService);
    expect(getSessionServiceFromUri(`sqlite://${file}`)).toBeInstanceOf(DatabaseSessionService);
    expect(adk.getSessionServiceFromUri(`sqlite://${file}`)).toBeInstanceOf(adk.DatabaseSessionService);
    expect(() => adk.getSessionServiceFromUri("redis://cache")).toThrow("Unsupported session service URI");
    expect(refusal(() => getSessionServiceFromUri("redis://cache")).message).toBe(
      '"redis://cache" does not name a database session service. Use one of: sqlite://, postgres://, postgresql:// (for example sqlite://sessions.db).',
    );
  });
});

describe("DatabaseSessionService", () => {
  it("runs a conversation over a SQLite file, which a service made by getSessionServiceFromUri reads after the first is closed", async () => {
    const file = join(newFolder(), "chat.db");
    const sessionService = keep(new DatabaseSessionService(`sqlite://${file}`));
    expect(existsSync(file)).toBe(false); // nothing is opened until it is used
    const model = new ScriptedModel([textResponse("Hello, Ann."), textResponse("Still here.")]);
    const runner = new Runner({ appName: "chat", agent: new LlmAgent({ name: "greeter", model }), sessionService });
    const session = await sessionService.createSession({ appName: "chat", userId: "ann" });
    for (const text of ["Hi", "Are you there?"]) await collect(runner.runAsync({ userId: "ann", sessionId: session.id, newMessage: userMessage(text) }));
    await sessionService.close();
    const reopened = keep(getSessionServiceFromUri(`sqlite://${file}`) as DatabaseSessionService);
    const stored = await reopened.getSession({ appName: "chat", userId: "ann", sessionId: session.id });
    expect(stored!.events.map((event) => event.content?.parts?.[0]?.text)).toEqual(["Hi", "Hello, Ann.", "Are you there?", "Still here."]);
    expect((await reopened.listSessions({ appName: "chat", userId: "ann" })).sessions.map((listed) => listed.id)).toEqual([session.id]);
  });

  it("opens the database once for the calls that start together, each call getting its own session", async () => {
    const file = join(newFolder(), "together.db");
    const sessionService = keep(new DatabaseSessionService(`sqlite://${file}`));
    const made = await Promise.all(Array.from({ length: 40 }, (_, index) => sessionService.createSession({ appName: "app", userId: `u${index % 4}`, state: { index } })));
    expect(new Set(made.map((session) => session.id)).size).toBe(40);
    const listed = await Promise.all(["u0", "u1", "u2", "u3"].map((userId) => sessionService.listSessions({ appName: "app", userId })));
    expect(listed.map((page) => page.sessions.length)).toEqual([10, 10, 10, 10]);
  });

  it("fails the call whose database cannot be opened, saying why, and opens it on a later call once it can", async () => {
    // A file stands where the database's folder would be made.
    const folder = join(newFolder(), "not-yet");
    writeFileSync(folder, "in the way");
    const sessionService = keep(new DatabaseSessionService(`sqlite://${join(folder, "late.db")}`));
    const failure = await sessionService.init().then(() => undefined, (error: unknown) => error as Error);
    expect(failure).toMatchObject({ code: "SQLITE_FILE_UNUSABLE", message: expect.stringMatching(/late\.db cannot be used as a toolsmith database: its folder .*not-yet cannot be made \(.*\)\. Give sqlite:\/\/ a path in a folder this process can write\.$/) });
    console.log(`the call that could not open the database: ${failure?.message}`);
    rmSync(folder);
    mkdirSync(folder);
    const session = await sessionService.createSession({ appName: "app", userId: "u" });
    expect(await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id })).toMatchObject({ id: session.id });
  });

  it("closes without opening when it was never used, and after an opening under way", async () => {
    const unused = new DatabaseSessionService(`sqlite://${join(newFolder(), "unused.db")}`);
    await unused.close();
    const file = join(newFolder(), "racing.db");
    const racing = new DatabaseSessionService(`sqlite://${file}`);
    const opening = racing.init();
    await racing.close();
    await opening;
    expect(existsSync(file)).toBe(true);
  });

  it.skipIf(!postgresUrl)(`keeps sessions in PostgreSQL given a postgresql:// connection string ${postgresMissing}`, async () => {
    const url = await freshDatabase();
    const sessionService = keep(new DatabaseSessionService(url));
    const model = new ScriptedModel([functionCallsResponse({ name: "note", args: { text: "milk" } }), textResponse("Noted.")]);
    const note = new FunctionTool({ name: "note", description: "Notes a thing.", parameters: z.object({ text: z.string() }), execute: ({ text }, context) => (context.state.set("user:last_note", text), { noted: text }) });
    const runner = new Runner({ appName: "notes", agent: new LlmAgent({ name: "noter", model, tools: [note] }), sessionService });
    const session = await sessionService.createSession({ appName: "notes", userId: "bo" });
    await collect(runner.runAsync({ userId: "bo", sessionId: session.id, newMessage: userMessage("Note milk.") }));
    const stored = await sessionService.getSession({ appName: "notes", userId: "bo", sessionId: session.id });
    expect(stored!.state["user:last_note"]).toBe("milk");
    expect(stored!.events).toHaveLength(4);
    const rows = await queryDatabase(url, "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it("refuses, when made, what it cannot honour, saying what to use, and writes nothing", () => {
    const folder = newFolder();
    const cases: Array<[unknown, string]> = [
      [{ driver: "sqlite", dbName: join(folder, "x.db") }, "DatabaseSessionService takes a connection string (sqlite://<path> or postgresql://user:password@host/database); ADK's MikroORM options object is not supported"],
      ["mysql://root:secret@db/app", 'DatabaseSessionService got "mysql://root:***@db/app": toolsmith keeps sessions in SQLite or PostgreSQL (sqlite://<path>, postgresql://…), not MySQL, MariaDB or SQL Server.'],
      ["mssql://sa@db/app", "not MySQL, MariaDB or SQL Server"],
      ["vertexai://projects/p/locations/l/reasoningEngines/1", "toolsmith has no Vertex AI session service"],
      ["memory://", "use new InMemorySessionService()"],
      ["sqlite://", '"sqlite://" names no path. Write it as sqlite://<path>.'],
      [join(folder, "plain.db"), "does not name a database session service. Use one of: sqlite://, postgres://, postgresql://"],
    ];
    for (const [given, message] of cases) {
      const error = refusal(() => new DatabaseSessionService(given as string));
      expect(["UNSUPPORTED_OPTION", "UNKNOWN_SERVICE_URI"]).toContain(error.code);
      expect(error.message).toContain(message);
    }
    // A password in a refused string is not repeated.
    expect(refusal(() => new DatabaseSessionService("mysql://root:secret@db/app")).message).not.toContain("secret");
    expect(refusal(() => getSessionServiceFromUri("postgresql://bo:hunter2@db:5432/app?x=1".replace("postgresql", "redis"))).message).not.toContain("hunter2");
    expect(existsSync(join(folder, "x.db")) || existsSync(join(folder, "plain.db"))).toBe(false);
  });
});

/** A scripted answer calling one tool, in the genai shape both frameworks' scripted models play. */
function functionCallsResponseLike(name: string, args: Record<string, unknown>) {
  return { content: { role: "model", parts: [{ functionCall: { name, args } }] } };
}

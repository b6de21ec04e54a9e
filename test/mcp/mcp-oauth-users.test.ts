/**
 * Several users of one MCPToolset behind OAuth (a deployed app's agent, many people signed in): each user has an
 * MCP session of their own. A server may bind its sessions to the user who opened them, as MCP's security
 * practices advise; and what the server sends on a session (a question for the person, a log message) concerns the
 * user of that session only.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FunctionTool, getFunctionResponses, InMemoryCredentialService, LlmAgent, REQUEST_CONFIRMATION, Runner, State, type Event } from "../../src/index.js";
import { elicitFromClient, logToClient, MCPToolset } from "../../src/mcp/index.js";
import { IDLE_USER_SESSION_MS } from "../../src/mcp/mcp-session.js";
import { collect, FunctionModel, functionCallsResponse, lastFunctionResponse, textResponse, userMessage } from "../../src/testing/index.js";
import { createToolContext } from "../support/tool-context.js";
import { startProtectedMcpServer, type ProtectedMcpServer } from "./protected-mcp-server.js";

const USERS = ["ada", "grace"];

/** Resolves once `count` callers have arrived: the served tools wait until both users' calls are in flight. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived >= count) open();
    return opened;
  };
}

let server: ProtectedMcpServer;
let bothBooking = barrier(USERS.length);
let bothLogging = barrier(USERS.length);

beforeAll(async () => {
  server = await startProtectedMcpServer({
    tools: [
      new FunctionTool({
        name: "book_table",
        description: "Books a table after asking how many people.",
        execute: async (_args, context) => {
          await bothBooking();
          const answer = await elicitFromClient(context, { message: "For how many people?", requestedSchema: { type: "object", properties: { people: { type: "integer" } }, required: ["people"] } });
          return answer.action === "accept" ? `Booked for ${JSON.stringify(answer.content)}` : `Not booked (${answer.action}).`;
        },
      }),
      new FunctionTool({
        name: "work",
        description: "Works, logging who it works for.",
        parameters: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
        execute: async (args, context) => {
          await bothLogging();
          logToClient(context, "info", `working for ${String(args.who)}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
          return "done";
        },
      }),
    ],
  });
});

afterAll(() => server.close());

/** A toolset whose users are signed in already: their tokens are in the credential service. */
async function signedInToolset(): Promise<{ toolset: MCPToolset; credentialService: InMemoryCredentialService }> {
  const credentialService = new InMemoryCredentialService();
  const toolset = new MCPToolset({ connection: { type: "http", url: server.mcpUrl, auth: { clientId: "toolsmith-test", credentialService } } });
  // The key the toolset keeps this server's tokens under, as its sign-in request names it.
  const [signIn] = await toolset.getTools();
  const probe = await createToolContext();
  await signIn!.run({}, probe);
  const credentialKey = Object.values(probe.actions.requestedAuthConfigs)[0]!.credentialKey!;
  for (const userId of USERS) {
    const accessToken = await server.tokenFor(userId);
    await credentialService.saveCredential({ context: { appName: "app", userId, state: new State({}, {}) }, credentialKey, credential: { authType: "oauth2", oauth2: { accessToken } } });
  }
  return { toolset, credentialService };
}

function confirmationRequest(events: readonly Event[]) {
  return events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION)?.functionCall;
}

function resultOf(events: readonly Event[], name: string): unknown {
  return events
    .flatMap((event) => getFunctionResponses(event.content))
    .filter((response) => response.name === name && response.response?.status !== "paused")
    .map((response) => response.response)[0];
}

describe("users of one MCPToolset behind OAuth", () => {
  it("each have their own MCP session: every request on a session carries the token of the user who opened it", async () => {
    const { toolset, credentialService } = await signedInToolset();
    const model = new FunctionModel((request) => (lastFunctionResponse(request)?.name === "secret_plans" ? textResponse("Tuesday.") : functionCallsResponse({ name: "secret_plans", args: {} })));
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "planner", model, tools: [toolset] }), credentialService });
    try {
      const before = server.requests.length;
      await Promise.all(
        USERS.map(async (userId) => {
          const session = await runner.sessionService.createSession({ appName: "app", userId });
          const events = await collect(runner.runAsync({ userId, sessionId: session.id, newMessage: userMessage("plans?") }));
          expect(resultOf(events, "secret_plans")).toEqual({ text: "Launch on Tuesday." });
        }),
      );
      const subjectsBySession = new Map<string, Set<string>>();
      for (const { sessionId, subject } of server.requests.slice(before)) {
        if (sessionId) subjectsBySession.set(sessionId, (subjectsBySession.get(sessionId) ?? new Set()).add(subject));
      }
      console.log(`MCP sessions opened: ${subjectsBySession.size}; users on each: ${[...subjectsBySession.values()].map((subjects) => [...subjects].join("+")).join(", ")}`);
      expect([...subjectsBySession.values()].map((subjects) => [...subjects])).toEqual(expect.arrayContaining([["ada"], ["grace"]]));
      expect([...subjectsBySession.values()].every((subjects) => subjects.size === 1)).toBe(true);
    } finally {
      await runner.close();
    }
  });

  it("hand the server's question during a call to the run of the user whose call it is, even with another user's call asking at the same time", async () => {
    bothBooking = barrier(USERS.length);
    const { toolset, credentialService } = await signedInToolset();
    const model = new FunctionModel((request) => (lastFunctionResponse(request)?.name === "book_table" ? textResponse("ok") : functionCallsResponse({ name: "book_table", args: {} })));
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "host", model, tools: [toolset] }), credentialService });
    try {
      const outcomes = await Promise.all(
        USERS.map(async (userId, index) => {
          const session = await runner.sessionService.createSession({ appName: "app", userId });
          const paused = await collect(runner.runAsync({ userId, sessionId: session.id, newMessage: userMessage("book") }));
          // Before each user had a session, the one shared session had two calls waiting, and the question was cancelled for both.
          const request = confirmationRequest(paused);
          expect(request, `${userId}'s run was not asked: ${JSON.stringify(resultOf(paused, "book_table"))}`).toBeDefined();
          const payload = (request!.args!.toolConfirmation as { payload: Record<string, unknown> }).payload;
          const resumed = await collect(
            runner.runAsync({
              userId,
              sessionId: session.id,
              newMessage: { role: "user", parts: [{ functionResponse: { id: request!.id!, name: REQUEST_CONFIRMATION, response: { confirmed: true, payload: { ...payload, content: { people: index + 2 } } } } }] },
            }),
          );
          return resultOf(resumed, "book_table");
        }),
      );
      expect(outcomes).toEqual([{ text: 'Booked for {"people":2}' }, { text: 'Booked for {"people":3}' }]);
    } finally {
      await runner.close();
    }
  });

  it("show a user only the server's log messages from their own calls", async () => {
    bothLogging = barrier(USERS.length);
    const { toolset, credentialService } = await signedInToolset();
    const model = new FunctionModel((request) =>
      lastFunctionResponse(request)?.name === "work" ? textResponse("ok") : functionCallsResponse({ name: "work", args: { who: String(request.contents.at(-1)?.parts?.[0]?.text) } }),
    );
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "worker", model, tools: [toolset] }), credentialService });
    try {
      const logs = await Promise.all(
        USERS.map(async (userId) => {
          const session = await runner.sessionService.createSession({ appName: "app", userId });
          const events = await collect(runner.runAsync({ userId, sessionId: session.id, newMessage: userMessage(userId) }));
          return events.map((event) => (event.customMetadata?.mcpLog as { data?: unknown } | undefined)?.data).filter(Boolean);
        }),
      );
      expect(logs).toEqual([["working for ada"], ["working for grace"]]);
    } finally {
      await runner.close();
    }
  });

  it("close a user's session unused for ten minutes, and open it again on their next call", async () => {
    const { toolset, credentialService } = await signedInToolset();
    const model = new FunctionModel((request) => (lastFunctionResponse(request)?.name === "secret_plans" ? textResponse("Tuesday.") : functionCallsResponse({ name: "secret_plans", args: {} })));
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "planner", model, tools: [toolset] }), credentialService });
    const ask = async (userId: string) => {
      const session = await runner.sessionService.createSession({ appName: "app", userId });
      return resultOf(await collect(runner.runAsync({ userId, sessionId: session.id, newMessage: userMessage("plans?") })), "secret_plans");
    };
    const sessionsOf = (subject: string, from: number) => new Set(server.requests.slice(from).filter((request) => request.subject === subject && request.sessionId).map((request) => request.sessionId));
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const start = server.requests.length;
      expect(await ask("ada")).toEqual({ text: "Launch on Tuesday." });
      vi.setSystemTime(Date.now() + IDLE_USER_SESSION_MS - 60_000);
      expect(await ask("grace")).toEqual({ text: "Launch on Tuesday." });
      // Within ten minutes ada's session is still the one she opened.
      expect(await ask("ada")).toEqual({ text: "Launch on Tuesday." });
      expect(sessionsOf("ada", start).size).toBe(1);
      vi.setSystemTime(Date.now() + IDLE_USER_SESSION_MS + 1);
      expect(await ask("grace")).toEqual({ text: "Launch on Tuesday." });
      // Both had been idle for longer: grace's call found hers closed and opened a new one; ada's next call does too.
      expect(sessionsOf("grace", start).size).toBe(2);
      expect(await ask("ada")).toEqual({ text: "Launch on Tuesday." });
      expect(sessionsOf("ada", start).size).toBe(2);
    } finally {
      vi.useRealTimers();
      await runner.close();
    }
  });

  it("keep a user's session open past ten minutes while their call waits for them to answer the server's question", async () => {
    bothBooking = barrier(1);
    const { toolset, credentialService } = await signedInToolset();
    const model = new FunctionModel((request) => {
      const last = lastFunctionResponse(request);
      if (last?.name === "book_table" || last?.name === "secret_plans") return textResponse("ok");
      return functionCallsResponse({ name: request.contents.at(-1)?.parts?.[0]?.text === "book" ? "book_table" : "secret_plans", args: {} });
    });
    const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "host", model, tools: [toolset] }), credentialService });
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const session = await runner.sessionService.createSession({ appName: "app", userId: "ada" });
      const request = confirmationRequest(await collect(runner.runAsync({ userId: "ada", sessionId: session.id, newMessage: userMessage("book") })))!;
      const payload = (request.args!.toolConfirmation as { payload: Record<string, unknown> }).payload;
      // Ada thinks it over; meanwhile grace's call makes the toolset look for idle sessions.
      vi.setSystemTime(Date.now() + IDLE_USER_SESSION_MS + 60_000);
      const other = await runner.sessionService.createSession({ appName: "app", userId: "grace" });
      expect(resultOf(await collect(runner.runAsync({ userId: "grace", sessionId: other.id, newMessage: userMessage("plans?") })), "secret_plans")).toEqual({ text: "Launch on Tuesday." });
      const resumed = await collect(
        runner.runAsync({ userId: "ada", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id!, name: REQUEST_CONFIRMATION, response: { confirmed: true, payload: { ...payload, content: { people: 5 } } } } }] } }),
      );
      expect(resultOf(resumed, "book_table")).toEqual({ text: 'Booked for {"people":5}' });
    } finally {
      vi.useRealTimers();
      await runner.close();
    }
  });
});

import { afterEach, describe, expect, it } from "vitest";
import * as adk from "@google/adk";
import { z } from "zod";
import { FunctionTool, LlmAgent, Runner, InMemorySessionService } from "../../src/index.js";
import { RemoteA2AAgent } from "../../src/a2a/index.js";
import { startServer, type RunningServer } from "../../src/server/start-server.js";
import { FunctionModel, functionCallsResponse, textResponse, userMessage } from "../../src/testing/index.js";
import { inlineApi } from "./inline-api.js";
import { RunTracker } from "../../src/server/run-tracker.js";

/**
 * `toolsmith web --a2a` / `api-server --a2a`: each app served over A2A under `/a2a/<app>/`, as ADK's API server
 * mounts it, beside the HTTP API, with its sessions in the server's store. Called here by toolsmith's and ADK's
 * `RemoteA2AAgent` over a real port.
 */

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An app whose agent calls `check_prime` and answers from its result; `calls` counts the model's calls. */
function primeApp() {
  const calls = { count: 0 };
  const checkPrime = new FunctionTool({ name: "check_prime", description: "Whether n is prime.", parameters: z.object({ n: z.number() }), execute: ({ n }) => ({ prime: [2, 3, 5, 7].includes(n) }) });
  const model = new FunctionModel((request) => {
    calls.count++;
    const last = request.contents.at(-1)?.parts?.[0];
    return last?.functionResponse ? textResponse(`prime: ${JSON.stringify(last.functionResponse.response)}`) : functionCallsResponse({ name: "check_prime", args: { n: 7 } });
  });
  return { agent: new LlmAgent({ name: "prime_agent", description: "Checks primes.", model, instruction: "You check primes.", tools: [checkPrime] }), calls };
}

async function serve(options: { authToken?: string } = {}) {
  const { agent, calls } = primeApp();
  let url = "";
  const api = await inlineApi({ primes: agent }, { a2a: { authToken: options.authToken, publicUrl: () => url } });
  server = await startServer({ app: api.app });
  url = server.url;
  return { ...api, url, calls };
}

async function askThrough(remote: { name: string }, framework: "toolsmith" | "adk", text: string) {
  const runner =
    framework === "toolsmith"
      ? new Runner({ appName: "client", agent: remote as RemoteA2AAgent, sessionService: new InMemorySessionService() })
      : new adk.Runner({ appName: "client", agent: remote as adk.BaseAgent, sessionService: new adk.InMemorySessionService() });
  const session = await runner.sessionService.createSession({ appName: "client", userId: "u" });
  const events: any[] = [];
  for await (const event of (runner as Runner).runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage(text) })) events.push(event);
  return events;
}

describe("the A2A surface of toolsmith's server (--a2a)", () => {
  it("serves each app's agent card under /a2a/<app>/, naming the server's own address", async () => {
    const { url } = await serve();
    const response = await fetch(`${url}/a2a/primes/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    const card = (await response.json()) as any;
    expect(card).toMatchObject({ name: "prime_agent", url: `${url}/a2a/primes/jsonrpc`, preferredTransport: "JSONRPC", capabilities: { streaming: true } });
    expect(card.additionalInterfaces).toEqual([
      { url: `${url}/a2a/primes/jsonrpc`, transport: "JSONRPC" },
      { url: `${url}/a2a/primes/rest`, transport: "HTTP+JSON" },
    ]);
    expect(card.skills.map((skill: { id: string }) => skill.id)).toEqual(["prime_agent", "prime_agent-check_prime"]);
  });

  it("runs an app for toolsmith's and ADK's RemoteA2AAgent, keeping each A2A context as a session of the app in the server's store", async () => {
    const { url, services } = await serve();
    for (const framework of ["toolsmith", "adk"] as const) {
      const remote = framework === "toolsmith" ? new RemoteA2AAgent({ name: "primes", agentCard: `${url}/a2a/primes` }) : new adk.RemoteA2AAgent({ name: "primes", agentCard: (await (await fetch(`${url}/a2a/primes/.well-known/agent-card.json`)).json()) as any });
      const events = await askThrough(remote, framework, "Is 7 prime?");
      const complete = events.filter((event) => !event.partial);
      expect(complete.map((event) => event.content?.parts?.[0]?.text ?? Object.keys(event.content?.parts?.[0] ?? {})[0])).toEqual(["functionCall", "functionResponse", 'prime: {"prime":true}']);
      expect(complete.every((event) => event.author === "primes" && !event.errorMessage)).toBe(true);
    }
    const { sessions } = await services.sessionService.listSessions({ appName: "primes" });
    expect(sessions).toHaveLength(2);
    for (const listed of sessions) {
      expect(listed.userId).toBe(`A2A_USER_${listed.id}`);
      const stored = await services.sessionService.getSession({ appName: "primes", userId: listed.userId, sessionId: listed.id });
      expect(stored!.events.map((event) => event.author)).toEqual(["user", "prime_agent", "prime_agent", "prime_agent"]);
    }
  });

  it("with an A2A token, refuses a request without it before the agent runs, and serves one that sends it", async () => {
    const { url, calls } = await serve({ authToken: "a2a-secret" });
    const send = (authorization?: string) =>
      fetch(`${url}/a2a/primes/jsonrpc`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "Is 7 prime?" }] } } }),
      });
    for (const authorization of [undefined, "Bearer wrong", "Basic a2a-secret", "Bearer a2a-secret-and-more"]) {
      const refused = await send(authorization);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe("Bearer");
      expect(await refused.json()).toEqual({
        error: "A2A request rejected: missing or invalid `Authorization: Bearer` credential. Send the credentials the A2A server was set up with (for a bearer token: Authorization: Bearer <token>).",
        code: "UNAUTHORIZED",
      });
    }
    expect(calls.count).toBe(0);
    const accepted = (await (await send("Bearer a2a-secret")).json()) as any;
    expect(accepted.result.status.state).toBe("completed");
    expect(calls.count).toBe(2);
  });

  it("answers 404 for an app the server does not have, and leaves the HTTP API's routes as they were", async () => {
    const { url } = await serve();
    const missing = await fetch(`${url}/a2a/nope/.well-known/agent-card.json`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).code).toBe("APP_NOT_FOUND");
    expect(await (await fetch(`${url}/list-apps`)).json()).toEqual(["primes"]);
  });

  it("is drained on shutdown as the HTTP API's runs are: a request under way finishes, a new one gets 503", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = new FunctionTool({ name: "slow", description: "Slow.", parameters: z.object({}), execute: async () => (await held, { done: true }) });
    const steps = [functionCallsResponse({ name: "slow", args: {} }), textResponse("finished")];
    let call = 0;
    const agent = new LlmAgent({ name: "slowpoke", model: new FunctionModel(() => steps[call++]!), instruction: "Be slow.", tools: [slow] });
    const runs = new RunTracker();
    let url = "";
    const api = await inlineApi({ slow: agent }, { runs, a2a: { publicUrl: () => url } });
    server = await startServer({ app: api.app });
    url = server.url;
    const send = () =>
      fetch(`${url}/a2a/slow/jsonrpc`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts: [{ kind: "text", text: "go" }] } } }),
      });
    const first = send();
    while (runs.active === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const drained = runs.drain({ graceMs: 5_000 });
    const refused = await send();
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as any).code).toBe("SERVER_DRAINING");
    release();
    expect(((await (await first).json()) as any).result.status.state).toBe("completed");
    expect(await drained).toEqual({ finished: 1, interrupted: 0 });
  });

  it("is not there unless asked for", async () => {
    const { agent } = primeApp();
    const api = await inlineApi({ primes: agent });
    server = await startServer({ app: api.app });
    expect((await fetch(`${server.url}/a2a/primes/.well-known/agent-card.json`)).status).toBe(404);
  });
});


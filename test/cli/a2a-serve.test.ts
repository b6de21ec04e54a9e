import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { RemoteA2AAgent } from "toolsmith/a2a";
import { InMemorySessionService, Runner } from "toolsmith";
import { cli } from "./cli-harness.js";

/** The flags that run the bin from source, as the other CLI tests run it. */
const SOURCE_NODE_FLAGS = ["--conditions=toolsmith-source", "--import", "tsx"];

/** `toolsmith api-server --a2a`, as ADK's `adk api_server --a2a`: each app also served over A2A under /a2a/<app>/. */
describe("toolsmith web and api-server --a2a", () => {
  it("serves each app over A2A with the token ADK's variable names, and a RemoteA2AAgent talks to it", async () => {
    const child = spawn(process.execPath, [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", "api-server", "examples", "--port", "0", "--a2a", "--session-service-uri", "memory://", "--artifact-service-uri", "memory://"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ADK_A2A_AUTH_TOKEN: "cli-secret" },
    });
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("A2A: ")) resolve(text);
        });
        child.once("exit", () => reject(new Error(`exited early: ${text}`)));
      });
      const url = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)![1]!;
      expect(output).toContain(`A2A: each app's agent card at ${url}/a2a/<app>/.well-known/agent-card.json (callers send Authorization: Bearer <token>)`);
      const card = (await (await fetch(`${url}/a2a/weather-sentiment/.well-known/agent-card.json`)).json()) as { url: string; name: string };
      expect(card).toMatchObject({ name: "weather_sentiment_agent", url: `${url}/a2a/weather-sentiment/jsonrpc` });

      const unauthenticated = await fetch(card.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: "Weather in Paris?" }] } } }) });
      expect(unauthenticated.status).toBe(401);

      const { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } = await import("@a2a-js/sdk/client");
      const withToken: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), authorization: "Bearer cli-secret" } });
      const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: withToken })] }));
      const remote = new RemoteA2AAgent({ name: "weather_sentiment_agent", agentCard: `${url}/a2a/weather-sentiment`, clientFactory: factory });
      const runner = new Runner({ appName: "client", agent: remote, sessionService: new InMemorySessionService() });
      const session = await runner.sessionService.createSession({ appName: "client", userId: "u" });
      const texts: string[] = [];
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "What is the weather in Paris?" }] } })) {
        expect(event.errorCode).toBeUndefined();
        if (!event.partial) for (const part of event.content?.parts ?? []) if (part.text) texts.push(part.text);
      }
      expect(texts.join(" ")).toMatch(/Paris/);
    } finally {
      child.kill("SIGINT");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    expect(child.exitCode).toBe(0);
  });

  it("refuses --a2a on a host other than loopback without a token", async () => {
    const previous = process.env.ADK_A2A_AUTH_TOKEN;
    delete process.env.ADK_A2A_AUTH_TOKEN;
    try {
      const result = await cli(["api-server", "examples", "--host", "0.0.0.0", "--port", "0", "--a2a"], [], { interrupt: AbortSignal.abort() });
      expect(result).toMatchObject({
        code: 2,
        stderr: "toolsmith: --a2a on 0.0.0.0 needs --a2a-auth-token or ADK_A2A_AUTH_TOKEN: anyone who can reach the port could run your agents and their tools over A2A. Without a token the A2A surface is served on a loopback host only.\n",
      });
    } finally {
      if (previous !== undefined) process.env.ADK_A2A_AUTH_TOKEN = previous;
    }
  });
});

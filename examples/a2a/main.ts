/**
 * A2A: an agent served over the agent-to-agent protocol with toA2a, and another agent that hands questions to it
 * through RemoteA2AAgent, as ADK's A2A quickstart does across two processes (here, one process and two ports'
 * worth of HTTP). Offline: both agents use scripted models. Needs `npm install @a2a-js/sdk express`.
 * Run: npx tsx examples/a2a/main.ts
 */
import type { AddressInfo } from "node:net";
import express from "express";
import { z } from "zod";
import { FunctionTool, InMemoryRunner, LlmAgent } from "toolsmith";
import { bearerTokenUserBuilder, RemoteA2AAgent, toA2a } from "toolsmith/a2a";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, textResponse } from "toolsmith/testing";

// The served agent: checks primes with a tool.
const checkPrime = new FunctionTool({
  name: "check_prime",
  description: "Whether a number is prime.",
  parameters: z.object({ n: z.number().int() }),
  execute: ({ n }) => ({ n, prime: n > 1 && Array.from({ length: Math.floor(Math.sqrt(n)) - 1 }, (_, i) => i + 2).every((d) => n % d !== 0) }),
});
const primeAgent = new LlmAgent({
  name: "prime_agent",
  description: "Checks whether numbers are prime.",
  instruction: "You check primes with check_prime.",
  tools: [checkPrime],
  model: new FunctionModel((request) => {
    const result = lastFunctionResponse(request);
    return result ? textResponse(`${result.response.n} is ${result.response.prime ? "" : "not "}prime.`) : functionCallsResponse({ name: "check_prime", args: { n: 97 } });
  }),
});

// Serve it: the card at /.well-known/agent-card.json, JSON-RPC at /jsonrpc, REST at /rest.
const app = express();
const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const port = (server.address() as AddressInfo).port;
await toA2a(primeAgent, { app, host: "127.0.0.1", port, authentication: bearerTokenUserBuilder("demo-token") });

// The calling side: a root agent that transfers prime questions to the remote agent, which sends its token.
const withToken: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), authorization: "Bearer demo-token" } });
const { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } = await import("@a2a-js/sdk/client");
const clientFactory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: withToken })] }));
const remotePrimes = new RemoteA2AAgent({ name: "prime_agent", agentCard: `http://127.0.0.1:${port}/`, clientFactory });
const root = new LlmAgent({
  name: "root",
  instruction: "Hand questions about primes to prime_agent.",
  subAgents: [remotePrimes],
  model: new FunctionModel(() => functionCallsResponse({ name: "transfer_to_agent", args: { agent_name: "prime_agent" } })),
});

const runner = new InMemoryRunner({ agent: root, appName: "primes" });
const session = await runner.sessionService.createSession({ appName: "primes", userId: "ana" });
for await (const event of runner.runAsync({ userId: "ana", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Is 97 prime?" }] } })) {
  if (event.partial) continue;
  for (const part of event.content?.parts ?? []) {
    if (part.text) console.log(`${event.author}: ${part.text}`);
    else if (part.functionCall) console.log(`${event.author} → ${part.functionCall.name}(${JSON.stringify(part.functionCall.args)})`);
  }
}
server.close();
server.closeAllConnections();

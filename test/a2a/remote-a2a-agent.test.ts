import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { RemoteA2AAgent } from "../../src/a2a/index.js";
import { FunctionTool, LlmAgent, LongRunningFunctionTool } from "../../src/index.js";
import { isToolsmithError } from "../../src/errors/toolsmith-error.js";
import { FunctionModel, ScriptedModel, functionCallsResponse, textResponse } from "../../src/testing/index.js";
import { brief, clientOf, serveA2A, shipmentWaiter } from "./serve-a2a.js";

/**
 * `RemoteA2AAgent` against real A2A servers on loopback ports: toolsmith's own `toA2a`, and plain HTTP servers
 * that answer as a broken or hostile peer would. What the caller's session keeps, what the remote agent is sent,
 * and that every failure ends the run with a typed error event rather than a throw.
 */

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function served(agent: LlmAgent) {
  const server = await serveA2A(agent);
  closers.push(server.close);
  return server;
}

/** An agent that answers each message with `answer <n>: <the text it got>`. */
function echoAgent(name = "echo_agent") {
  let count = 0;
  const model = new FunctionModel((request) => {
    const texts = (request.contents.at(-1)?.parts ?? []).map((part) => part.text ?? "").join(" | ");
    return textResponse(`answer ${++count}: ${texts}`);
  });
  return new LlmAgent({ name, description: "Echoes.", model, instruction: "Echo." });
}

/** A plain HTTP server answering with `answer(request, body)`; `hits` counts its requests. */
async function rawServer(answer: (request: IncomingMessage, body: any, response: ServerResponse) => void) {
  const hits = { count: 0 };
  const server = createServer((request, response) => {
    hits.count++;
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => answer(request, text ? JSON.parse(text) : undefined, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits, card: { name: "peer", description: "", protocolVersion: "0.3.0", version: "1", url: `${url}/jsonrpc`, preferredTransport: "JSONRPC", capabilities: { streaming: false }, defaultInputModes: ["text"], defaultOutputModes: ["text"], skills: [] } };
}

describe("RemoteA2AAgent", () => {
  it("reads the card from the agent's base URL, from the card's own URL, or from a file", async () => {
    const server = await served(echoAgent());
    const cardFile = join(mkdtempSync(join(tmpdir(), "a2a-card-")), "card.json");
    writeFileSync(cardFile, JSON.stringify(await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()));
    for (const agentCard of [server.url, `${server.url}/`, `${server.url}/.well-known/agent-card.json`, cardFile]) {
      const client = await clientOf(new RemoteA2AAgent({ name: "echo_agent", agentCard }));
      const events = await client.turn("hi");
      expect(events.filter((event) => !event.partial).map(brief)).toEqual([expect.stringMatching(/^answer \d+: hi$/)]);
    }
  });

  it("is refused when made with neither a card nor a client", () => {
    let thrown: unknown;
    try {
      new RemoteA2AAgent({ name: "nowhere" });
    } catch (error) {
      thrown = error;
    }
    expect(isToolsmithError(thrown) && thrown.code).toBe("INVALID_A2A_AGENT");
    expect((thrown as Error).message).toBe('RemoteA2AAgent "nowhere" needs an agentCard (a card, its URL or a file path) or a client made with @a2a-js/sdk.');
  });

  it("refuses an option it does not know (a misspelt agentCard) rather than ignore it", () => {
    let thrown: unknown;
    try {
      new RemoteA2AAgent({ name: "typo", agentCrad: "http://127.0.0.1:1/" } as never);
    } catch (error) {
      thrown = error;
    }
    expect(isToolsmithError(thrown) && thrown.code).toBe("UNSUPPORTED_OPTION");
    expect((thrown as Error).message).toBe(
      'RemoteA2AAgent "typo" has no option "agentCrad": it takes name, description, subAgents, beforeAgentCallback, afterAgentCallback, parentAgent, agentCard, client, clientFactory, messageSendConfig, beforeRequestCallbacks, afterRequestCallbacks. Check its spelling.',
    );
  });

  it("ends the run with an error event, not a throw, when the card cannot be read; the session keeps the user's message", async () => {
    const dir = mkdtempSync(join(tmpdir(), "a2a-card-"));
    writeFileSync(join(dir, "broken.json"), "{ not json");
    const down = await rawServer((_request, _body, response) => response.writeHead(404).end());
    for (const [agentCard, code, message] of [
      [join(dir, "broken.json"), "INVALID_A2A_AGENT", /^The agent card file .*broken\.json is not JSON: /],
      [join(dir, "missing.json"), "INVALID_A2A_AGENT", /^The agent card file .*missing\.json could not be read: ENOENT/],
      [down.url, "A2A_REQUEST_FAILED", /^The agent card at http:\/\/127\.0\.0\.1:\d+ could not be read: Failed to fetch Agent Card from .*: 404\. Check that the remote agent is running/],
    ] as const) {
      const client = await clientOf(new RemoteA2AAgent({ name: "peer", agentCard }));
      const events = await client.turn("hi");
      expect(events.map((event) => event.errorCode)).toEqual([code]);
      expect(events[0]!.errorMessage).toMatch(message);
      expect((await client.stored()).map((event) => event.author)).toEqual(["user", "peer"]);
    }
  });

  it("sends a failed request once and ends the run with A2A_REQUEST_FAILED: the remote agent may have acted", async () => {
    const peer = await rawServer((_request, _body, response) => response.writeHead(500, { "content-type": "text/plain" }).end("boom"));
    const client = await clientOf(new RemoteA2AAgent({ name: "peer", agentCard: peer.card }));
    const events = await client.turn("hi");
    expect(events.map((event) => event.errorCode)).toEqual(["A2A_REQUEST_FAILED"]);
    expect(events[0]!.errorMessage).toMatch(/^The request to remote agent "peer" failed: .*500.*Nothing was retried \(the remote agent may have acted\)/);
    expect(peer.hits.count).toBe(1);
  });

  it("refuses a hostile peer's malformed reply with A2A_INVALID_MESSAGE, keeping none of it", async () => {
    const peer = await rawServer((_request, body, response) =>
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { kind: "message", messageId: "x", role: "agent", parts: [{ kind: "data", data: { args: { rm: "-rf" } }, metadata: { adk_type: "function_call" } }] } }),
      ),
    );
    const client = await clientOf(new RemoteA2AAgent({ name: "peer", agentCard: peer.card }));
    const events = await client.turn("hi");
    expect(events.map((event) => [event.errorCode, event.content])).toEqual([["A2A_INVALID_MESSAGE", undefined]]);
    expect((await client.stored()).map(brief)).toEqual(["hi", "error A2A_INVALID_MESSAGE"]);
  });

  it("ends with the remote run's own error code and message when the remote agent's run fails", async () => {
    const broken = new LlmAgent({ name: "broken", model: new ScriptedModel([new Error("the provider is down")]), instruction: "Try." });
    const server = await served(broken);
    const client = await clientOf(new RemoteA2AAgent({ name: "broken", agentCard: server.url }));
    const events = await client.turn("hi");
    const [remoteSession] = await server.storedSessions();
    const remoteError = remoteSession!.events.at(-1)!;
    expect(remoteError.errorCode).toBeTruthy();
    expect(events.map((event) => [event.errorCode, event.errorMessage])).toEqual([[remoteError.errorCode, remoteError.errorMessage]]);
  });

  it("uses message/send when the card says the agent does not stream", async () => {
    const peer = await rawServer((_request, body, response) => {
      expect(body.method).toBe("message/send");
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { kind: "message", messageId: "x", role: "agent", contextId: "ctx-1", parts: [{ kind: "text", text: "hello back" }] } }));
    });
    const client = await clientOf(new RemoteA2AAgent({ name: "peer", agentCard: peer.card }));
    const [event] = await client.turn("hi");
    expect(event).toMatchObject({ author: "peer", content: { role: "model", parts: [{ text: "hello back" }] }, turnComplete: true });
    expect(Object.keys(event!.customMetadata!)).toEqual(["a2a:request", "a2a:response"]);
  });

  it("runs its callbacks around the request: before may change what is sent, and one that throws sends nothing", async () => {
    const seen: unknown[] = [];
    const peer = await rawServer((_request, body, response) => {
      seen.push(body.params.message.metadata);
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { kind: "message", messageId: "x", role: "agent", parts: [{ kind: "text", text: "ok" }] } }));
    });
    const responses: string[] = [];
    const agent = new RemoteA2AAgent({
      name: "peer",
      agentCard: peer.card,
      beforeRequestCallbacks: [(_context, params) => void (params.message.metadata = { ...params.message.metadata, ticket: "T-1" })],
      afterRequestCallbacks: [(_context, response) => void responses.push(response.kind)],
    });
    await (await clientOf(agent)).turn("hi");
    expect(seen).toEqual([expect.objectContaining({ ticket: "T-1", adk_app_name: "client", adk_user_id: "u" })]);
    expect(responses).toEqual(["message"]);

    const refusing = new RemoteA2AAgent({ name: "peer", agentCard: peer.card, beforeRequestCallbacks: [() => Promise.reject(new Error("not during the freeze"))] });
    const events = await (await clientOf(refusing)).turn("hi");
    expect(events.map((event) => [event.errorCode, event.errorMessage])).toEqual([["A2A_REQUEST_FAILED", 'The request to remote agent "peer" failed: not during the freeze. Nothing was retried (the remote agent may have acted); check that its agent card and URL are reachable and run again.']]);
    expect(peer.hits.count).toBe(1);
  });

  it("sends what is new since its last answer, other agents' words retold as context, and stays in the remote agent's A2A context", async () => {
    const server = await served(echoAgent());
    const remote = new RemoteA2AAgent({ name: "echo_agent", agentCard: server.url });
    const root = new LlmAgent({
      name: "root",
      model: new ScriptedModel([
        textResponse("Let me ask the echo agent."),
        functionCallsResponse({ name: "transfer_to_agent", args: { agent_name: "echo_agent" } }),
        functionCallsResponse({ name: "transfer_to_agent", args: { agent_name: "echo_agent" } }),
      ]),
      instruction: "Route.",
      subAgents: [remote],
    });
    const client = await clientOf(root);
    expect((await client.turn("first")).map(brief)).toEqual(["Let me ask the echo agent."]);
    const second = (await client.turn("second")).filter((event) => !event.partial);
    expect(second.map(brief)).toEqual([
      "call transfer_to_agent",
      "response transfer_to_agent",
      "answer 1: first | For context: | [root] said: Let me ask the echo agent. | second | For context: | [root] called tool transfer_to_agent with parameters: {\"agent_name\":\"echo_agent\"} | For context: | [root] transfer_to_agent tool returned result: {\"status\":\"success\",\"transferred_to\":\"echo_agent\"}",
    ]);
    // A remote agent is no LLM agent, so the next message goes to the root again (as in ADK), which transfers
    // again: the remote agent is sent only what came after its own answer.
    const third = (await client.turn("third")).filter((event) => !event.partial);
    expect(third.at(-1)!.content!.parts![0]!.text).toBe(
      'answer 2: third | For context: | [root] called tool transfer_to_agent with parameters: {"agent_name":"echo_agent"} | For context: | [root] transfer_to_agent tool returned result: {"status":"success","transferred_to":"echo_agent"}',
    );
    const sessions = await server.storedSessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.events.filter((event) => event.author === "echo_agent").map(brief)).toEqual([expect.stringMatching(/^answer 1: /), expect.stringMatching(/^answer 2: third \| For context:/)]);
  });

  it("yields streamed text as partial chunks and keeps one complete event of it", async () => {
    const streaming = new LlmAgent({ name: "writer", model: new ScriptedModel([[textResponse("Once "), textResponse("upon "), textResponse("a time.")]]), instruction: "Write." });
    const server = await served(streaming);
    const client = await clientOf(new RemoteA2AAgent({ name: "writer", agentCard: server.url }));
    const events = await client.turn("a story");
    expect(events.map((event) => [brief(event), Boolean(event.partial)])).toEqual([
      ["Once ", true],
      ["upon ", true],
      ["a time.", true],
      ["Once upon a time.", false],
    ]);
    expect((await client.stored()).map(brief)).toEqual(["a story", "Once upon a time."]);
  });

  it("pauses on the remote agent's long-running call and sends the person's answer to the waiting remote task", async () => {
    const askManager = new LongRunningFunctionTool({ name: "ask_manager", description: "Asks a manager.", parameters: z.object({ amount: z.number() }), execute: ({ amount }) => ({ status: "pending", amount }) });
    const expenses = new LlmAgent({
      name: "expenses",
      model: new ScriptedModel([functionCallsResponse({ name: "ask_manager", args: { amount: 500 } }), textResponse("Waiting for the manager."), textResponse("Reimbursed.")]),
      instruction: "Handle expenses.",
      tools: [askManager],
    });
    const server = await served(expenses);
    const client = await clientOf(new RemoteA2AAgent({ name: "expenses", agentCard: server.url }));
    const first = await client.turn("Reimburse 500");
    const pause = first.at(-1)!;
    expect(pause.longRunningToolIds).toHaveLength(1);
    const callId = pause.longRunningToolIds![0]!;
    const taskId = pause.customMetadata!["a2a:task_id"];
    const second = await client.turn({ role: "user", parts: [{ functionResponse: { id: callId, name: "ask_manager", response: { status: "approved" } } }] });
    expect(second.filter((event) => !event.partial).map(brief)).toEqual(["Reimbursed."]);
    expect(second.at(-1)!.customMetadata!["a2a:task_id"]).toBe(taskId);
    const [remoteSession] = await server.storedSessions();
    expect(remoteSession!.events.map(brief)).toEqual(["Reimburse 500", "call ask_manager", "response ask_manager", "Waiting for the manager.", "response ask_manager", "Reimbursed."]);
  });

  it("stops the remote request when the run is cancelled, without a throw", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = new FunctionTool({ name: "slow", description: "Takes a while.", parameters: z.object({}), execute: async () => (await held, { done: true }) });
    const agent = new LlmAgent({ name: "slowpoke", model: new ScriptedModel([functionCallsResponse({ name: "slow", args: {} }), textResponse("finally")]), instruction: "Be slow.", tools: [slow] });
    const server = await served(agent);
    const client = await clientOf(new RemoteA2AAgent({ name: "slowpoke", agentCard: server.url }));
    const controller = new AbortController();
    const events: string[] = [];
    for await (const event of client.runner.runAsync({ userId: "u", sessionId: client.session.id, newMessage: { role: "user", parts: [{ text: "go" }] }, abortSignal: controller.signal })) {
      events.push(brief(event));
      if (event.content?.parts?.[0]?.functionCall) controller.abort();
    }
    release();
    expect(events[0]).toBe("call slow");
    expect(events).not.toContain("finally");
  });

  it("cancels its remote task when the caller cancels the run, so the remote agent's tool is told to stop too", async () => {
    const { agent, started, stopped } = shipmentWaiter();
    const server = await served(agent);
    const client = await clientOf(new RemoteA2AAgent({ name: "shipping", agentCard: server.url }));
    // What the client asks the server to cancel, as it goes over the wire.
    const cancelRequests: Array<{ id: string }> = [];
    const realFetch = globalThis.fetch;
    const watched = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      if (body?.method === "tasks/cancel") cancelRequests.push(body.params);
      return realFetch(input, init);
    });
    closers.push(async () => watched.mockRestore());
    const controller = new AbortController();
    const events: string[] = [];
    const run = (async () => {
      for await (const event of client.runner.runAsync({ userId: "u", sessionId: client.session.id, newMessage: { role: "user", parts: [{ text: "Where is my parcel?" }] }, abortSignal: controller.signal })) events.push(brief(event));
    })();
    await started;
    controller.abort();
    await run;
    // The remote task ended canceled, its tool stopped; the caller's run ended without an error event.
    await expect.poll(() => stopped() !== undefined).toBe(true);
    expect(cancelRequests).toHaveLength(1);
    const task = (await (await realFetch(`${server.url}/jsonrpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: cancelRequests[0]!.id } }) })).json()) as any;
    expect(task.result.status.state).toBe("canceled");
    expect(events.filter((line) => line.startsWith("error"))).toEqual([]);
  });
});

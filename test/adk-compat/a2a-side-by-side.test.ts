/**
 * toolsmith's A2A (`toolsmith/a2a`) side by side with ADK's (`@google/adk/a2a`, 2.0), by running both.
 *
 * Each served agent runs on a scripted model (ADK: a `BaseLlm` subclass; toolsmith: `ScriptedModel`), is served with
 * its framework's `toA2a` on a free local port, and is called through a `RemoteA2AAgent` run by a `Runner` of either
 * framework: all four pairings (ADK→ADK, ADK→toolsmith, toolsmith→ADK, toolsmith→toolsmith) must give the client the
 * same events and leave the same session on the server. Events are compared normalised (a2a-harness.ts `normalise`):
 * author, parts (function-call ids mapped to call-1, call-2, …), partial, whether there is an error message,
 * turnComplete, which `a2a:` keys customMetadata has, how many long-running calls, and the kind (and state) of the A2A
 * message the event came from. Ids, timestamps and invocation ids differ and are left out.
 *
 * Deliberate differences, asserted as such:
 * - a failed remote task: toolsmith's client event always has an errorCode (the peer's `adk_error_code`, else
 *   `A2A_TASK_FAILED`); ADK's has the peer's code when it sent one and none otherwise;
 * - an unreachable server: toolsmith's error event has errorCode `A2A_REQUEST_FAILED` (ADK's none), and a card given
 *   by URL that cannot be read is an error event too, where ADK's runAsync throws;
 * - a card given by its own URL (…/.well-known/agent-card.json): toolsmith reads it there; ADK reads every URL as a
 *   base (…/.well-known/.well-known/agent-card.json, 404) and its runAsync throws;
 * - a refused credential: toolsmith answers 401 before the SDK sees the request; ADK lets the SDK answer 500
 *   (JSON-RPC -32603) and log a stack;
 * - `toA2a` without authentication: toolsmith throws a ConfigurationError `A2A_UNAUTHENTICATED` (ADK a plain Error);
 * - a served run that throws: toolsmith's runner turns the throw into an error event (`RUN_FAILED`), so the failed
 *   status carries that code; ADK's executor catches it ("Agent run failed: …", no code). A model that throws is
 *   `MODEL_ERROR` on toolsmith, `UNKNOWN_ERROR` on ADK;
 * - outside A2A: `transfer_to_agent` takes `agent_name` and answers `{ status, transferred_to }` on toolsmith,
 *   `agentName` and `{ result: "Transfer queued" }` on ADK 2.0 (docs/adk-compat.md), so the "For context:" retelling
 *   of a transfer differs in those words only.
 */
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  ADK,
  KITS,
  PAIRS,
  TOOLSMITH,
  callTool,
  captureLogs,
  closeAll,
  closedPort,
  contextIdOf,
  normalise,
  runClient,
  say,
  serve,
  serverSessions,
  userText,
  withoutIds,
  type Any,
  type Kit,
  type Response,
} from "./a2a-harness.js";

let logs: ReturnType<typeof captureLogs>;
beforeAll(() => {
  logs = captureLogs();
});
afterAll(async () => {
  await closeAll();
  logs.restore();
});

/** One value per pairing, labelled, so a mismatch names the pairing. */
type PerPair<T> = Array<{ pair: string; value: T }>;

/** Every pairing's value equals the first's (ADK client → ADK server). */
function expectSameAsAdk<T>(results: PerPair<T>): void {
  expect(results.map((result) => result.pair)).toEqual(PAIRS.map((pair) => pair.label));
  expect(results).toEqual(results.map(({ pair }) => ({ pair, value: results[0]!.value })));
}

/** Runs `program` for every client→server pairing. */
async function forEachPair<T>(program: (client: Kit, server: Kit) => Promise<T>): Promise<PerPair<T>> {
  const results: PerPair<T> = [];
  for (const { client, server, label } of PAIRS) results.push({ pair: label, value: await program(client, server) });
  return results;
}

function weatherTool(kit: Kit) {
  return new kit.f.FunctionTool({
    name: "get_weather",
    description: "The weather of a city.",
    parameters: z.object({ city: z.string() }),
    execute: ({ city }: { city: string }) => ({ city, forecast: "sunny" }),
  });
}

function weatherAgent(kit: Kit, model: unknown, tools: unknown[] = []) {
  return new kit.f.LlmAgent({ name: "weather_agent", description: "Knows the weather.", instruction: "You answer questions about the weather.", model, tools });
}

/** The A2A message an event came from (`a2a:response`). */
const responseOf = (event: Any) => event.customMetadata?.["a2a:response"];

describe("A2A, side by side with @google/adk 2.0", () => {
  it("a served agent that calls a tool then answers: the client's events and the server's session are the same in all four pairings", async () => {
    const results = await forEachPair(async (client, server) => {
      const model = server.scripted([callTool("get_weather", { city: "Paris" }), say("Sunny in Paris.")]);
      const served = await serve(server, weatherAgent(server, model.model, [weatherTool(server)]));
      const remote = new client.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: served.card });
      const run = await runClient(client, remote, [userText("What is the weather in Paris?")]);
      const contextId = contextIdOf(run.stored);
      const sessions = await serverSessions(served, "weather_agent", contextId);
      await served.close();
      return {
        yielded: normalise(run.runs[0]!),
        stored: normalise(run.stored),
        // The executor's session for the context: id = contextId, user = A2A_USER_<contextId>, app = the agent's name.
        serverSessions: sessions.map((session) => ({ isContext: session.id === contextId, userId: session.userId.replace(contextId, "<contextId>"), appName: session.appName, events: normalise(session.events) })),
        modelCalls: model.calls(),
      };
    });
    expectSameAsAdk(results);
    const fromRemote = { author: "weather_remote", a2a: ["a2a:context_id", "a2a:response", "a2a:task_id"], response: "artifact-update" };
    expect(results[0]!.value).toEqual({
      yielded: [
        { ...fromRemote, parts: [{ functionCall: { id: "call-1", name: "get_weather", args: { city: "Paris" } } }] },
        { ...fromRemote, parts: [{ functionResponse: { id: "call-1", name: "get_weather", response: { city: "Paris", forecast: "sunny" } } }] },
        { ...fromRemote, parts: [{ text: "Sunny in Paris." }] },
      ],
      stored: [
        { author: "user", parts: [{ text: "What is the weather in Paris?" }] },
        { ...fromRemote, parts: [{ functionCall: { id: "call-1", name: "get_weather", args: { city: "Paris" } } }] },
        { ...fromRemote, parts: [{ functionResponse: { id: "call-1", name: "get_weather", response: { city: "Paris", forecast: "sunny" } } }] },
        { ...fromRemote, parts: [{ text: "Sunny in Paris." }] },
      ],
      serverSessions: [
        {
          isContext: true,
          userId: "A2A_USER_<contextId>",
          appName: "weather_agent",
          events: [
            { author: "user", parts: [{ text: "What is the weather in Paris?" }] },
            { author: "weather_agent", parts: [{ functionCall: { id: "call-1", name: "get_weather", args: { city: "Paris" } } }] },
            { author: "weather_agent", parts: [{ functionResponse: { id: "call-1", name: "get_weather", response: { city: "Paris", forecast: "sunny" } } }] },
            { author: "weather_agent", parts: [{ text: "Sunny in Paris." }] },
          ],
        },
      ],
      modelCalls: 2,
    });
  });

  it("a second turn continues in the same A2A context, sending only what is new since the remote agent's reply, other agents' words retold 'For context:'", async () => {
    /** The words of `transfer_to_agent`, which differ outside A2A (docs/adk-compat.md), as placeholders. */
    const sameTransferWords = <T>(value: T): T =>
      JSON.parse(
        JSON.stringify(value)
          .replaceAll('{\\"agentName\\":\\"weather_remote\\"}', "<transfer args>")
          .replaceAll('{\\"agent_name\\":\\"weather_remote\\"}', "<transfer args>")
          .replaceAll('{\\"result\\":\\"Transfer queued\\"}', "<transfer result>")
          .replaceAll('{\\"status\\":\\"success\\",\\"transferred_to\\":\\"weather_remote\\"}', "<transfer result>")
          .replaceAll('{"agentName":"weather_remote"}', '"<transfer args>"')
          .replaceAll('{"agent_name":"weather_remote"}', '"<transfer args>"')
          .replaceAll('{"result":"Transfer queued"}', '"<transfer result>"')
          .replaceAll('{"status":"success","transferred_to":"weather_remote"}', '"<transfer result>"'),
      ) as T;
    const results = await forEachPair(async (client, server) => {
      const model = server.scripted([say("Sunny in Paris."), say("Rainy in Rome.")]);
      const served = await serve(server, weatherAgent(server, model.model));
      const remote = new client.a2a.RemoteA2AAgent({ name: "weather_remote", description: "Knows the weather.", agentCard: served.card });
      const args = client.name === "adk" ? { agentName: "weather_remote" } : { agent_name: "weather_remote" };
      const transfer = { functionCall: { name: "transfer_to_agent", args } };
      // The coordinator transfers to the remote agent on each turn (the runner starts each turn at the root: a remote agent is not an LlmAgent to stay with).
      const coordinatorModel = client.scripted([{ content: { role: "model", parts: [transfer] } }, { content: { role: "model", parts: [{ text: "Asking the weather agent again." }, transfer] } }] as Response[]);
      const coordinator = new client.f.LlmAgent({ name: "coordinator", model: coordinatorModel.model, instruction: "Route weather questions.", subAgents: [remote] });
      const run = await runClient(client, coordinator, [userText("Weather in Paris?"), userText("And in Rome?")]);
      const remoteEvents = run.stored.filter((event: Any) => event.author === "weather_remote");
      const contextId = contextIdOf(remoteEvents);
      const sessions = await serverSessions(served, "weather_agent", contextId);
      await served.close();
      return sameTransferWords({
        runs: run.runs.map(normalise),
        taskIds: new Set(remoteEvents.map((event: Any) => event.customMetadata["a2a:task_id"])).size,
        serverSessions: sessions.map((session) => normalise(session.events)),
        secondModelRequest: withoutIds(model.contents()[1]),
      });
    });
    expectSameAsAdk(results);
    const { value } = results[0]!;
    // One context, two tasks (a completed task is not continued; the next message names only the context).
    expect(value.taskIds).toBe(2);
    expect(value.serverSessions).toHaveLength(1);
    expect(value.serverSessions[0]).toEqual([
      {
        author: "user",
        parts: [
          { text: "Weather in Paris?" },
          { text: "For context:" },
          { text: "[coordinator] called tool transfer_to_agent with parameters: <transfer args>" },
          { text: "For context:" },
          { text: "[coordinator] transfer_to_agent tool returned result: <transfer result>" },
        ],
      },
      { author: "weather_agent", parts: [{ text: "Sunny in Paris." }] },
      {
        // Only what came after the remote agent's reply: not the first turn again.
        author: "user",
        parts: [
          { text: "And in Rome?" },
          { text: "For context:" },
          { text: "[coordinator] said: Asking the weather agent again." },
          { text: "[coordinator] called tool transfer_to_agent with parameters: <transfer args>" },
          { text: "For context:" },
          { text: "[coordinator] transfer_to_agent tool returned result: <transfer result>" },
        ],
      },
      { author: "weather_agent", parts: [{ text: "Rainy in Rome." }] },
    ]);
    // The served model's second request holds the whole conversation of the context.
    expect((value.secondModelRequest as Array<{ role: string }>).map((content) => content.role)).toEqual(["user", "model", "user"]);
    expect(value.runs[1]!.at(-1)).toEqual({ author: "weather_remote", parts: [{ text: "Rainy in Rome." }], a2a: ["a2a:context_id", "a2a:response", "a2a:task_id"], response: "artifact-update" });
  });

  it("streamed text: the client yields each chunk as a partial event, then one complete event, and stores only the complete one", async () => {
    const results = await forEachPair(async (client, server) => {
      const model = server.scripted([[say("Sun"), say("ny in "), say("Paris.")]]);
      const served = await serve(server, weatherAgent(server, model.model));
      const remote = new client.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: served.card });
      const run = await runClient(client, remote, [userText("Weather in Paris?")]);
      const sessions = await serverSessions(served, "weather_agent", contextIdOf(run.stored));
      await served.close();
      const wire = run.runs[0]!.map(responseOf);
      return {
        yielded: normalise(run.runs[0]!),
        stored: normalise(run.stored),
        // The chunks and the complete text go into one artifact: appended while partial, its last chunk complete.
        artifacts: new Set(wire.map((response: Any) => response.artifact.artifactId)).size,
        chunkFlags: wire.map((response: Any) => ({ append: Boolean(response.append), lastChunk: Boolean(response.lastChunk) })),
        serverEvents: normalise(sessions[0].events),
      };
    });
    expectSameAsAdk(results);
    const chunk = (text: string) => ({ author: "weather_remote", parts: [{ text }], partial: true, a2a: ["a2a:context_id", "a2a:response", "a2a:task_id"], response: "artifact-update" });
    const complete = { author: "weather_remote", parts: [{ text: "Sunny in Paris." }], a2a: ["a2a:context_id", "a2a:response", "a2a:task_id"], response: "artifact-update" };
    expect(results[0]!.value).toEqual({
      yielded: [chunk("Sun"), chunk("ny in "), chunk("Paris."), complete],
      stored: [{ author: "user", parts: [{ text: "Weather in Paris?" }] }, complete],
      artifacts: 1,
      chunkFlags: [...Array(3).fill({ append: true, lastChunk: false }), { append: false, lastChunk: true }],
      serverEvents: [
        { author: "user", parts: [{ text: "Weather in Paris?" }] },
        { author: "weather_agent", parts: [{ text: "Sunny in Paris." }] },
      ],
    });
  });

  describe("a long-running tool on the served agent", () => {
    /** Runs the pause and the answer: the client sends a function response for the call its first run ended waiting on. */
    async function pauseAndAnswer(client: Kit, server: Kit) {
      const model = server.scripted([callTool("ask_approval", { amount: 100 }), say("Waiting for the manager."), say("Approved: paying 100.")]);
      const approval = new server.f.LongRunningFunctionTool({ name: "ask_approval", description: "Asks a manager to approve a payment.", parameters: z.object({ amount: z.number() }), execute: () => ({ status: "pending" }) });
      const served = await serve(server, new server.f.LlmAgent({ name: "payer", instruction: "You pay.", model: model.model, tools: [approval] }));
      const remote = new client.a2a.RemoteA2AAgent({ name: "payer_remote", agentCard: served.card });
      let waitingOn = "";
      const run = await runClient(client, remote, [
        userText("Pay 100."),
        (events) => {
          waitingOn = events.at(-1).longRunningToolIds[0];
          return { role: "user", parts: [{ functionResponse: { id: waitingOn, name: "ask_approval", response: { status: "approved" } } }] };
        },
      ]);
      const remoteEvents = run.stored.filter((event: Any) => event.author === "payer_remote");
      const sessions = await serverSessions(served, "payer", contextIdOf(remoteEvents));
      await served.close();
      const paused = run.runs[0]!.at(-1);
      return {
        run,
        paused,
        statusParts: responseOf(paused).status.message.parts,
        waitingOn,
        remoteEvents,
        sessions,
        model,
      };
    }

    it("pauses the task input-required; the client's function response goes back to the same task and the agent finishes", async () => {
      const results = await forEachPair(async (client, server) => {
        const { run, paused, waitingOn, remoteEvents, sessions, model } = await pauseAndAnswer(client, server);
        const [firstRun, secondRun] = run.runs.map(normalise);
        // The input-required status's own parts are compared in the next test; here, only its calls.
        const pausedNormalised = firstRun!.at(-1)!;
        return {
          firstRun: [...firstRun!.slice(0, -1), { ...pausedNormalised, parts: pausedNormalised.parts!.filter((part: Any) => part.functionCall) }],
          secondRun,
          waitsOnTheCall: paused.longRunningToolIds.length === 1 && paused.content.parts.some((part: Any) => part.functionCall?.id === waitingOn),
          state: responseOf(paused).status.state,
          oneTask: new Set(remoteEvents.map((event: Any) => event.customMetadata["a2a:task_id"])).size === 1,
          serverSessions: sessions.map((session) => normalise(session.events)),
          lastModelRequest: withoutIds(model.contents().at(-1)),
          modelCalls: model.calls(),
        };
      });
      expectSameAsAdk(results);
      const fromRemote = { author: "payer_remote", a2a: ["a2a:context_id", "a2a:response", "a2a:task_id"], response: "artifact-update" };
      const call = { functionCall: { id: "call-1", name: "ask_approval", args: { amount: 100 } } };
      expect(results[0]!.value).toEqual({
        firstRun: [
          { ...fromRemote, parts: [call], longRunning: 1 },
          { ...fromRemote, parts: [{ functionResponse: { id: "call-1", name: "ask_approval", response: { status: "pending" } } }] },
          { ...fromRemote, parts: [{ text: "Waiting for the manager." }] },
          { author: "payer_remote", parts: [call], turnComplete: true, longRunning: 1, a2a: ["a2a:context_id", "a2a:request", "a2a:response", "a2a:task_id"], response: "status-update:input-required" },
        ],
        secondRun: [{ ...fromRemote, parts: [{ text: "Approved: paying 100." }] }],
        waitsOnTheCall: true,
        state: "input-required",
        oneTask: true,
        serverSessions: [
          [
            { author: "user", parts: [{ text: "Pay 100." }] },
            { author: "payer", parts: [call], longRunning: 1 },
            { author: "payer", parts: [{ functionResponse: { id: "call-1", name: "ask_approval", response: { status: "pending" } } }] },
            { author: "payer", parts: [{ text: "Waiting for the manager." }] },
            { author: "user", parts: [{ functionResponse: { id: "call-1", name: "ask_approval", response: { status: "approved" } } }] },
            { author: "payer", parts: [{ text: "Approved: paying 100." }] },
          ],
        ],
        lastModelRequest: [
          { role: "user", parts: [{ text: "Pay 100.", thought: false }] },
          { role: "model", parts: [{ functionCall: { name: "ask_approval", args: { amount: 100 } } }] },
          { role: "user", parts: [{ functionResponse: { name: "ask_approval", response: { status: "approved" } } }] },
        ],
        modelCalls: 3,
      });
    });

    /**
     * ADK's input-required status names only the waiting call: its scan (event_processor_utils.js
     * scanForInputRequiredEvents) matches the call's pending response to the call but skips it, the id being added
     * already. toolsmith's sent the response too until this test found it.
     */
    it("the input-required status carries only the waiting call, as ADK's", async () => {
      const adk = await pauseAndAnswer(TOOLSMITH, ADK);
      const ours = await pauseAndAnswer(TOOLSMITH, TOOLSMITH);
      const kinds = (parts: Any[]) => parts.map((part) => `${part.kind}:${part.metadata?.adk_type ?? ""}${part.metadata?.adk_is_long_running ? " (long-running)" : ""}`);
      expect(kinds(adk.statusParts)).toEqual(["data:function_call (long-running)"]);
      expect(kinds(ours.statusParts)).toEqual(kinds(adk.statusParts));
    });
  });

  describe("a served agent whose run fails", () => {
    it("a model that throws: the task fails and every client ends with an error event carrying the peer's message and code", async () => {
      const results = await forEachPair(async (client, server) => {
        const model = server.scripted([new Error("model exploded")]);
        const served = await serve(server, weatherAgent(server, model.model));
        const remote = new client.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: served.card });
        const run = await runClient(client, remote, [userText("Weather in Paris?")]);
        await served.close();
        const last = run.runs[0]!.at(-1);
        return { yielded: normalise(run.runs[0]!), state: responseOf(last).status.state, errorMessage: last.errorMessage, errorCode: last.errorCode };
      });
      const failed = [{ author: "weather_remote", error: true, turnComplete: true, a2a: ["a2a:context_id", "a2a:request", "a2a:response", "a2a:task_id"], response: "status-update:failed" }];
      // ADK's model error is UNKNOWN_ERROR, toolsmith's MODEL_ERROR; both clients take the code the peer sent (adk_error_code).
      const codeOf = (label: string) => (label.endsWith("adk server") ? "UNKNOWN_ERROR" : "MODEL_ERROR");
      expect(results).toEqual(results.map(({ pair }) => ({ pair, value: { yielded: failed, state: "failed", errorMessage: "model exploded", errorCode: codeOf(pair) } })));
    });

    it("an agent that throws: the task fails; toolsmith's client event has an errorCode even when the peer sent none (A2A_TASK_FAILED), ADK's only the message", async () => {
      const thrower = (kit: Kit) => {
        class Thrower extends kit.f.BaseAgent {
          constructor(config: Any) {
            super(config);
          }
          async *runAsyncImpl(): AsyncGenerator<never> {
            throw new Error("agent exploded");
          }
          async *runLiveImpl(): AsyncGenerator<never> {
            throw new Error("not live");
          }
        }
        return new Thrower({ name: "thrower", description: "Throws." });
      };
      const results = await forEachPair(async (client, server) => {
        const served = await serve(server, thrower(server));
        const remote = new client.a2a.RemoteA2AAgent({ name: "thrower_remote", agentCard: served.card });
        const run = await runClient(client, remote, [userText("Go.")]);
        await served.close();
        const last = run.runs[0]!.at(-1);
        return { yielded: normalise(run.runs[0]!), state: responseOf(last).status.state, peerCode: responseOf(last).metadata?.adk_error_code, errorMessage: last.errorMessage, errorCode: last.errorCode };
      });
      const failed = [{ author: "thrower_remote", error: true, turnComplete: true, a2a: ["a2a:context_id", "a2a:request", "a2a:response", "a2a:task_id"], response: "status-update:failed" }];
      for (const { value } of results) expect(value).toMatchObject({ yielded: failed, state: "failed" });
      const byPair = Object.fromEntries(results.map(({ pair, value }) => [pair, { peerCode: value.peerCode, errorCode: value.errorCode, errorMessage: value.errorMessage }]));
      // toolsmith's runner turns the throw into an error event (RUN_FAILED) that the task's failure carries; ADK's executor catches it.
      const toolsmithServerMessage = "The run failed: Error: agent exploded. This came from the agent's own code (an instruction provider, a custom agent, a tool's processLlmRequest) or from toolsmith; the session holds everything up to here.";
      expect(byPair).toEqual({
        "adk client → adk server": { peerCode: undefined, errorCode: undefined, errorMessage: "Agent run failed: agent exploded" },
        "adk client → toolsmith server": { peerCode: "RUN_FAILED", errorCode: "RUN_FAILED", errorMessage: toolsmithServerMessage },
        "toolsmith client → adk server": { peerCode: undefined, errorCode: "A2A_TASK_FAILED", errorMessage: "Agent run failed: agent exploded" },
        "toolsmith client → toolsmith server": { peerCode: "RUN_FAILED", errorCode: "RUN_FAILED", errorMessage: toolsmithServerMessage },
      });
    });
  });

  it("a card given by the agent's base URL is read by both; by the card's own URL (…/agent-card.json) only by toolsmith, ADK's runAsync throwing", async () => {
    const outcomes: Record<string, unknown> = {};
    for (const { client, server, label } of PAIRS) {
      const model = server.scripted([say("Sunny."), say("Sunny again.")]);
      const served = await serve(server, weatherAgent(server, model.model), { ownPort: true });
      const byBase = await runClient(client, new client.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: served.base }), [userText("Weather?")]);
      const ownUrl = `${served.base}/${client.a2a.AGENT_CARD_PATH}`;
      let byOwnUrl: unknown;
      try {
        byOwnUrl = normalise((await runClient(client, new client.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: ownUrl }), [userText("Weather?")])).runs[0]!);
      } catch (error) {
        byOwnUrl = `threw ${(error as Error).constructor.name}`;
      }
      await served.close();
      outcomes[label] = { byBase: normalise(byBase.runs[0]!), byOwnUrl, modelCalls: model.calls() };
    }
    const answer = (text: string) => [{ author: "weather_remote", parts: [{ text }], a2a: ["a2a:context_id", "a2a:response", "a2a:task_id"], response: "artifact-update" }];
    // ADK reads every URL as a base and looks for …/agent-card.json/.well-known/agent-card.json (its resolver's error escapes runAsync).
    const adkClient = { byBase: answer("Sunny."), byOwnUrl: "threw Error", modelCalls: 1 };
    const toolsmithClient = { byBase: answer("Sunny."), byOwnUrl: answer("Sunny again."), modelCalls: 2 };
    expect(outcomes).toEqual({
      "adk client → adk server": adkClient,
      "adk client → toolsmith server": adkClient,
      "toolsmith client → adk server": toolsmithClient,
      "toolsmith client → toolsmith server": toolsmithClient,
    });
  });

  describe("a remote server that is down", () => {
    it("a card whose URL is a closed port: both yield one error event and do not throw; toolsmith's has errorCode A2A_REQUEST_FAILED", async () => {
      const port = await closedPort();
      const outcomes: Record<string, unknown> = {};
      for (const kit of KITS) {
        const card = await kit.a2a.getA2AAgentCard(weatherAgent(kit, kit.scripted([]).model), [{ url: `http://127.0.0.1:${port}/jsonrpc`, transport: "JSONRPC" }]);
        const run = await runClient(kit, new kit.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: card }), [userText("Weather in Paris?")]);
        const [event] = run.runs[0]!;
        outcomes[kit.name] = { yielded: normalise(run.runs[0]!), errorCode: event.errorCode, mentionsFetch: String(event.errorMessage).includes("fetch failed") };
      }
      const yielded = [{ author: "weather_remote", error: true, turnComplete: true }];
      expect(outcomes).toEqual({ adk: { yielded, errorCode: undefined, mentionsFetch: true }, toolsmith: { yielded, errorCode: "A2A_REQUEST_FAILED", mentionsFetch: true } });
    });

    it("a card given by a URL that cannot be read: toolsmith yields an A2A_REQUEST_FAILED error event where ADK's runAsync throws", async () => {
      const url = `http://127.0.0.1:${await closedPort()}`;
      await expect(runClient(ADK, new ADK.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: url }), [userText("Weather?")])).rejects.toThrow("fetch failed");
      const run = await runClient(TOOLSMITH, new TOOLSMITH.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: url }), [userText("Weather?")]);
      expect(normalise(run.runs[0]!)).toEqual([{ author: "weather_remote", error: true, turnComplete: true }]);
      expect(run.runs[0]![0].errorCode).toBe("A2A_REQUEST_FAILED");
      expect(run.runs[0]![0].errorMessage).toContain(`The agent card at ${url} could not be read`);
    });
  });

  describe("getA2AAgentCard", () => {
    /** The same agent trees on either framework. */
    function trees(kit: Kit) {
      const f = kit.f;
      const tool = (name: string, description?: string) => new f.FunctionTool({ name, description, parameters: z.object({}), execute: () => ({}) });
      class FileTools extends f.BaseToolset {
        constructor() {
          super([]);
        }
        async getTools() {
          return [tool("list_files", "Lists files."), tool("read_file")];
        }
        async close() {}
      }
      class Custom extends f.BaseAgent {
        constructor(config: Any) {
          super(config);
        }
        async *runAsyncImpl(): AsyncGenerator<never> {}
        async *runLiveImpl(): AsyncGenerator<never> {}
      }
      const model = "gemini-2.5-flash";
      const fetcher = () => new f.LlmAgent({ name: "fetcher", description: "fetch the data", model, instruction: "You fetch data." });
      const writer = () => new f.LlmAgent({ name: "writer", model });
      const checker = () => new Custom({ name: "checker", description: "check the result" });
      const helper = new f.LlmAgent({
        name: "helper",
        description: "Helps with files.",
        instruction: "You are a helper. Your job: answer what you're asked; you've got tools, and yours are the best. You were told so.",
        model,
        tools: [tool("get_weather", "The weather."), new FileTools()],
      });
      return {
        llmWithToolsAndToolset: helper,
        llmWithoutInstruction: new f.LlmAgent({ name: "plain", model }),
        llmWithInstructionProvider: new f.LlmAgent({ name: "dynamic", model, instruction: async () => "You are made at run time." }),
        sequential: new f.SequentialAgent({ name: "pipeline", description: "A pipeline.", subAgents: [fetcher(), writer(), checker()] }),
        parallel: new f.ParallelAgent({ name: "fan_out", subAgents: [fetcher(), writer(), checker()] }),
        loop: new f.LoopAgent({ name: "refine", maxIterations: 3, subAgents: [fetcher(), writer()] }),
        unlimitedLoop: new f.LoopAgent({ name: "forever", subAgents: [fetcher()] }),
        emptySequential: new f.SequentialAgent({ name: "empty" }),
        custom: new Custom({ name: "custom" }),
        customWithSubAgents: new Custom({ name: "custom_parent", description: "Runs two agents.", subAgents: [fetcher(), writer()] }),
        rootWithSubTrees: new f.LlmAgent({ name: "root", model, instruction: "Route the request.", subAgents: [helper, new f.SequentialAgent({ name: "inner", subAgents: [writer()] })] }),
      };
    }

    it("makes deep-equal cards for the same agent trees (LLM agents with tools and a toolset, workflow agents, custom agents)", async () => {
      const transports = [
        { url: "http://localhost:8001/jsonrpc", transport: "JSONRPC" },
        { url: "http://localhost:8001/rest", transport: "HTTP+JSON" },
      ];
      const adkTrees = trees(ADK);
      const ourTrees = trees(TOOLSMITH);
      const cards = async (kit: Kit, agents: Record<string, unknown>) => Object.fromEntries(await Promise.all(Object.entries(agents).map(async ([key, agent]) => [key, await kit.a2a.getA2AAgentCard(agent, transports)])));
      const adkCards = await cards(ADK, adkTrees);
      const ourCards = await cards(TOOLSMITH, ourTrees);
      expect(ourCards).toEqual(adkCards);
      // What the comparison covers, spelled out once.
      expect(adkCards.llmWithToolsAndToolset.skills).toEqual([
        { id: "helper", name: "model", description: "Helps with files. I am a helper. my job: answer what I am asked; I have got tools, and mine are the best. I was told so.", tags: ["llm"] },
        { id: "helper-get_weather", name: "get_weather", description: "The weather.", tags: ["llm", "tools"] },
        { id: "helper-list_files", name: "list_files", description: "Lists files.", tags: ["llm", "tools"] },
        { id: "helper-read_file", name: "read_file", description: "Tool: read_file", tags: ["llm", "tools"] },
      ]);
      expect(adkCards.loop.skills[0].description).toBe("This agent will fetch the data and execute the writer agent in a loop (max 3 iterations).");
      expect(adkCards.unlimitedLoop.skills[0].description).toBe("This agent will fetch the data in a loop (max unlimited iterations).");
      expect(adkCards.sequential.skills.map((skill: Any) => skill.id)).toEqual(["pipeline", "pipeline-sub-agents", "fetcher_fetcher", "writer_writer", "checker_checker"]);
      expect(adkCards.custom.skills).toEqual([{ id: "custom", name: "custom", description: "A custom agent", tags: ["custom_agent"] }]);
    });

    it("toA2a serves the same card for the same agent and options", async () => {
      const served = await Promise.all(KITS.map(async (kit) => (await serve(kit, weatherAgent(kit, kit.scripted([]).model, [weatherTool(kit)]))).servedCard));
      await closeAll();
      expect(served[1]).toEqual(served[0]);
      expect(served[0]).toMatchObject({
        name: "weather_agent",
        url: "http://127.0.0.1:1/jsonrpc",
        preferredTransport: "JSONRPC",
        additionalInterfaces: [
          { url: "http://127.0.0.1:1/jsonrpc", transport: "JSONRPC" },
          { url: "http://127.0.0.1:1/rest", transport: "HTTP+JSON" },
        ],
      });
    });
  });

  describe("authentication", () => {
    it("toA2a without authentication and without allowUnauthenticated throws on both (toolsmith: ConfigurationError A2A_UNAUTHENTICATED); allowUnauthenticated logs a security warning on both", async () => {
      const agent = (kit: Kit) => weatherAgent(kit, kit.scripted([]).model);
      await expect(ADK.a2a.toA2a(agent(ADK), {})).rejects.toThrow("refusing to mount the A2A server without authentication");
      await expect(TOOLSMITH.a2a.toA2a(agent(TOOLSMITH), {})).rejects.toMatchObject({ name: "ConfigurationError", code: "A2A_UNAUTHENTICATED" });
      await expect(TOOLSMITH.a2a.toA2a(agent(TOOLSMITH), {})).rejects.toBeInstanceOf(TOOLSMITH.f.ConfigurationError);
      // An empty token is refused by both.
      expect(() => ADK.a2a.bearerTokenUserBuilder("  ")).toThrow("empty A2A bearer token");
      expect(() => TOOLSMITH.a2a.bearerTokenUserBuilder("  ")).toThrow(expect.objectContaining({ code: "A2A_UNAUTHENTICATED" }));
      const before = logs.lines.length;
      for (const kit of KITS) await kit.a2a.toA2a(agent(kit), { allowUnauthenticated: true });
      const warnings = logs.lines.slice(before).filter((line) => line.startsWith("warn SECURITY WARNING"));
      expect(warnings).toHaveLength(2);
    });

    it("with bearerTokenUserBuilder, a request without the token or with a wrong one is refused and the agent never runs (ADK: 500, toolsmith: 401)", async () => {
      // The SDK logs a refused request's stack to the console (ADK's path): kept out of the test output.
      const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        const statuses: Record<string, unknown> = {};
        for (const kit of KITS) {
          const model = kit.scripted([]);
          const served = await serve(kit, weatherAgent(kit, model.model), { authentication: kit.a2a.bearerTokenUserBuilder("s3cret") });
          const message = { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "Weather?" }] };
          const post = async (path: string, body: unknown, authorization?: string) =>
            (await fetch(`${served.base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) }, body: JSON.stringify(body) })).status;
          const rpc = { jsonrpc: "2.0", id: 1, method: "message/send", params: { message } };
          statuses[kit.name] = {
            jsonRpcWithout: await post("/jsonrpc", rpc),
            jsonRpcWrong: await post("/jsonrpc", rpc, "Bearer wrong"),
            restWithout: await post("/rest/v1/message:send", { message }),
            card: (await fetch(`${served.base}/${kit.a2a.AGENT_CARD_PATH}`)).status,
            modelCalls: model.calls(),
          };
          await served.close();
        }
        expect(statuses).toEqual({
          adk: { jsonRpcWithout: 500, jsonRpcWrong: 500, restWithout: 500, card: 200, modelCalls: 0 },
          toolsmith: { jsonRpcWithout: 401, jsonRpcWrong: 401, restWithout: 401, card: 200, modelCalls: 0 },
        });
        // Through a RemoteA2AAgent without the token: an error event, in every pairing, and the served model is never called.
        const refused = await forEachPair(async (client, server) => {
          const model = server.scripted([]);
          const served = await serve(server, weatherAgent(server, model.model), { authentication: server.a2a.bearerTokenUserBuilder("s3cret") });
          const run = await runClient(client, new client.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: served.card }), [userText("Weather?")]);
          await served.close();
          return { yielded: normalise(run.runs[0]!), modelCalls: model.calls() };
        });
        for (const { value } of refused) expect(value).toEqual({ yielded: [{ author: "weather_remote", error: true, turnComplete: true }], modelCalls: 0 });
      } finally {
        consoleError.mockRestore();
      }
    });

    it("with the right token (a client whose fetch sends it, given as clientFactory or client), every pairing runs the agent", async () => {
      const fetchWithToken: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("authorization", "Bearer s3cret");
        return fetch(input, { ...init, headers });
      };
      const factory = () => new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithToken })] }));
      const results = await forEachPair(async (client, server) => {
        const model = server.scripted([say("Sunny."), say("Still sunny.")]);
        const served = await serve(server, weatherAgent(server, model.model), { authentication: server.a2a.bearerTokenUserBuilder("s3cret") });
        const viaFactory = await runClient(client, new client.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: served.card, clientFactory: factory() }), [userText("Weather?")]);
        const viaClient = await runClient(client, new client.a2a.RemoteA2AAgent({ name: "weather_remote", agentCard: served.card, client: await factory().createFromAgentCard(served.card) }), [userText("Weather?")]);
        await served.close();
        return { viaFactory: normalise(viaFactory.runs[0]!), viaClient: normalise(viaClient.runs[0]!), modelCalls: model.calls() };
      });
      expectSameAsAdk(results);
      const answer = (text: string) => [{ author: "weather_remote", parts: [{ text }], a2a: ["a2a:context_id", "a2a:response", "a2a:task_id"], response: "artifact-update" }];
      expect(results[0]!.value).toEqual({ viaFactory: answer("Sunny."), viaClient: answer("Still sunny."), modelCalls: 2 });
    });
  });
});

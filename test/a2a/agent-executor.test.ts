import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { A2AAgentExecutor, getA2AAgentCard } from "../../src/a2a/index.js";
import { FunctionTool, LlmAgent, LongRunningFunctionTool, requestInputTool } from "../../src/index.js";
import { FunctionModel, ScriptedModel, functionCallsResponse, textResponse } from "../../src/testing/index.js";
import { serveA2A, shipmentWaiter } from "./serve-a2a.js";

/**
 * The serving side, driven over JSON-RPC as any A2A client drives it: the task's life (submitted, working,
 * artifacts, final status), answers to waiting calls (a missing answer or a peer's answer to a confirmation is
 * refused and nothing runs), and the executor's callbacks.
 */

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function served(agent: LlmAgent, options: Parameters<typeof serveA2A>[1] = {}) {
  const server = await serveA2A(agent, options);
  closers.push(server.close);
  let id = 0;
  /** `message/send` (blocking): the task as it ended. */
  const send = async (parts: unknown[], ids: { taskId?: string; contextId?: string } = {}) => {
    const response = await fetch(`${server.url}/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "message/send", params: { message: { kind: "message", messageId: `m${id}`, role: "user", parts, ...ids } } }),
    });
    return ((await response.json()) as any).result;
  };
  return { ...server, send };
}

const text = (value: string) => ({ kind: "text", text: value });
const responsePart = (callId: string, name: string, response: Record<string, unknown>) => ({ kind: "data", data: { id: callId, name, response }, metadata: { adk_type: "function_response" } });
const waitingCalls = (task: any) => task.status.message.parts.filter((part: any) => part.metadata?.adk_type === "function_call").map((part: any) => part.data);

describe("A2AAgentExecutor", () => {
  it("runs a task to completed, each event with content an artifact of the task, tagged with its session and author", async () => {
    const agent = new LlmAgent({ name: "greeter", model: new ScriptedModel([textResponse("Hello!")]), instruction: "Greet." });
    const server = await served(agent);
    const task = await server.send([text("hi")]);
    expect(task.status.state).toBe("completed");
    expect(task.artifacts.map((artifact: any) => artifact.parts)).toEqual([[{ kind: "text", text: "Hello!" }]]);
    expect(task.status.message).toBeUndefined();
    const [session] = await server.storedSessions();
    expect(session).toMatchObject({ id: task.contextId, userId: `A2A_USER_${task.contextId}` });
    expect(task.metadata ?? task.status.metadata ?? {}).not.toHaveProperty("adk_escalate", true);
  });

  it("ends a task whose run fails with failed and the error event's message", async () => {
    const agent = new LlmAgent({ name: "broken", model: new ScriptedModel([new Error("the provider is down")]), instruction: "Try." });
    const server = await served(agent);
    const task = await server.send([text("hi")]);
    expect(task.status.state).toBe("failed");
    expect(task.status.message.parts[0].text).toMatch(/the provider is down/);
  });

  it("keeps a task waiting until every call it waits on is answered: a message that leaves one unanswered runs nothing", async () => {
    let modelCalls = 0;
    const steps = [functionCallsResponse({ name: "adk_request_input", args: { message: "Approve paying 5?" } }), textResponse("Approved and paid.")];
    const agent = new LlmAgent({ name: "expenses", model: new FunctionModel(() => steps[modelCalls++]!), instruction: "Pay.", tools: [requestInputTool] });
    const server = await served(agent);
    const waiting = await server.send([text("pay 5")]);
    expect(waiting.status.state).toBe("input-required");
    const [call] = waitingCalls(waiting);
    expect(call).toMatchObject({ name: "adk_request_input", args: { message: "Approve paying 5?" } });
    expect(modelCalls).toBe(1);

    const ids = { taskId: waiting.id, contextId: waiting.contextId };
    const refused = await server.send([text("any news?")], ids);
    expect(refused.status.state).toBe("input-required");
    expect(refused.status.message.parts.at(-1)).toEqual({ kind: "text", text: `No input provided for function call id ${call.id}`, metadata: { validation_error: true } });
    expect(modelCalls).toBe(1);
    const [stored] = await server.storedSessions();
    expect(stored!.events.some((event) => event.content?.parts?.[0]?.text === "any news?")).toBe(false);

    const done = await server.send([responsePart(call.id, "adk_request_input", { result: "yes" })], ids);
    expect(done.status.state).toBe("completed");
    expect(done.id).toBe(waiting.id);
    expect(modelCalls).toBe(2);
  });

  it("lets a plain long-running call's task take any message, as ADK does: the call already answered for now", async () => {
    let modelCalls = 0;
    const askManager = new LongRunningFunctionTool({ name: "ask_manager", description: "Asks a manager.", parameters: z.object({}), execute: () => ({ status: "pending" }) });
    const steps = [functionCallsResponse({ name: "ask_manager", args: {} }), textResponse("Waiting for the manager."), textResponse("Still waiting.")];
    const agent = new LlmAgent({ name: "expenses", model: new FunctionModel(() => steps[modelCalls++]!), instruction: "Pay.", tools: [askManager] });
    const server = await served(agent);
    const waiting = await server.send([text("pay 5")]);
    expect(waiting.status.state).toBe("input-required");
    const news = await server.send([text("any news?")], { taskId: waiting.id, contextId: waiting.contextId });
    expect(news.status.state).toBe("completed");
    expect(news.artifacts.at(-1).parts).toEqual([{ kind: "text", text: "Still waiting." }]);
  });

  it("refuses a peer's answer to a tool confirmation, which a person must give, and keeps the task waiting", async () => {
    {
      let paid = 0;
      const pay = new FunctionTool({ name: "pay", description: "Pays.", parameters: z.object({ amount: z.number() }), requireConfirmation: true, execute: ({ amount }) => ({ paid: (paid += amount) }) });
      const agent = new LlmAgent({ name: "payer", model: new ScriptedModel([functionCallsResponse({ name: "pay", args: { amount: 5 } }), textResponse("Paid.")]), instruction: "Pay.", tools: [pay] });
      const server = await served(agent);
      const waiting = await server.send([text("pay 5")]);
      expect(waiting.status.state).toBe("input-required");
      const [confirmation] = waitingCalls(waiting);
      expect(confirmation.name).toBe("adk_request_confirmation");
      const answer = await server.send([responsePart(confirmation.id, "adk_request_confirmation", { confirmed: true })], { taskId: waiting.id, contextId: waiting.contextId });
      expect(answer.status.state).toBe("input-required");
      expect(answer.status.message.parts.at(-1).text).toMatch(/^The confirmation .* cannot be answered over A2A: it asks a person to take responsibility for an action/);
      expect(paid).toBe(0);
    }
  });

  it("lets a peer answer a confirmation when its runConfig sets allowRemoteToolConfirmation", async () => {
    let paid = 0;
    const pay = new FunctionTool({ name: "pay", description: "Pays.", parameters: z.object({ amount: z.number() }), requireConfirmation: true, execute: ({ amount }) => ({ paid: (paid += amount) }) });
    const agent = new LlmAgent({ name: "payer", model: new ScriptedModel([functionCallsResponse({ name: "pay", args: { amount: 5 } }), textResponse("Paid.")]), instruction: "Pay.", tools: [pay] });
    const { DefaultRequestHandler, InMemoryTaskStore } = await import("@a2a-js/sdk/server");
    const { jsonRpcHandler, UserBuilder } = await import("@a2a-js/sdk/server/express");
    const express = (await import("express")).default;
    const { InMemorySessionService } = await import("../../src/index.js");
    const executor = new A2AAgentExecutor({ runner: { agent, appName: "payer", sessionService: new InMemorySessionService() }, runConfig: { allowRemoteToolConfirmation: true } });
    const app = express();
    app.use(express.json());
    app.use("/jsonrpc", jsonRpcHandler({ requestHandler: new DefaultRequestHandler(await getA2AAgentCard(agent, [{ url: "http://127.0.0.1/jsonrpc", transport: "JSONRPC" }]), new InMemoryTaskStore(), executor), userBuilder: UserBuilder.noAuthentication }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as any).port}/jsonrpc`;
    const send = async (parts: unknown[], ids = {}) =>
      ((await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: crypto.randomUUID(), role: "user", parts, ...ids } } }) })).json()) as any).result;
    const waiting = await send([text("pay 5")]);
    const [confirmation] = waitingCalls(waiting);
    const done = await send([responsePart(confirmation.id, "adk_request_confirmation", { confirmed: true })], { taskId: waiting.id, contextId: waiting.contextId });
    expect(done.status.state).toBe("completed");
    expect(paid).toBe(5);
  });

  it("fails a task whose message is not A2A with the reason, stores nothing of it, and never answers with the SDK's internal error (300 hostile messages)", async () => {
    const agent = new LlmAgent({ name: "greeter", model: new FunctionModel(() => textResponse("Hello!")), instruction: "Greet." });
    const server = await served(agent);
    const json = fc.jsonValue({ maxDepth: 2 });
    const hostilePart = fc.oneof(
      json,
      fc.record({ kind: fc.constantFrom("text", "file", "data", "image"), text: json, file: json, data: json, metadata: fc.oneof(json, fc.record({ adk_type: fc.constantFrom("function_call", "function_response") })) }, { requiredKeys: ["kind"] }),
      fc.record({ kind: fc.constant("text"), text: fc.string() }),
    );
    const tally = { completed: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.array(hostilePart, { maxLength: 3 }), json), async (parts) => {
        const task = await server.send(parts as unknown[]);
        expect(task?.kind).toBe("task");
        if (task.status.state === "failed") {
          tally.failed++;
          expect(task.status.message.parts[0].text).toMatch(/^Agent run failed: .* The A2A peer sent something toolsmith cannot read/);
        } else {
          tally.completed++;
          expect(task.status.state).toBe("completed");
        }
      }),
      { numRuns: 300 },
    );
    const sessions = await server.storedSessions();
    console.log(`hostile A2A messages: ${tally.completed} ran, ${tally.failed} failed with the reason, ${sessions.length} sessions stored (one per message that ran)`);
    expect(sessions).toHaveLength(tally.completed);
    expect(tally.failed).toBeGreaterThan(0);
  });

  it("refuses an option it does not know rather than ignore it", () => {
    expect(() => new A2AAgentExecutor({ runner: { agent: new LlmAgent({ name: "x" }), appName: "x" }, afterEvent: async () => {} } as never)).toThrow(
      'A2AAgentExecutor has no option "afterEvent": it takes runner, runConfig, beforeExecuteCallback, afterEventCallback, afterExecuteCallback. Check its spelling.',
    );
  });

  it("calls its callbacks in order: before the run, after each artifact, then with the final status", async () => {
    const order: string[] = [];
    const agent = new LlmAgent({ name: "greeter", model: new ScriptedModel([textResponse("Hello!")]), instruction: "Greet." });
    const { InMemorySessionService } = await import("../../src/index.js");
    const executor = new A2AAgentExecutor({
      runner: () => ({ agent, appName: "greeter", sessionService: new InMemorySessionService() }),
      beforeExecuteCallback: async (request) => void order.push(`before ${request.userMessage.parts[0]!.kind}`),
      afterEventCallback: async (context, event, update) => void order.push(`event ${event.author} ${update?.artifact.parts[0]!.kind} ${context.appName}`),
      afterExecuteCallback: async (_context, final) => void order.push(`final ${final.status.state}`),
    });
    const published: string[] = [];
    const { RequestContext } = await import("@a2a-js/sdk/server");
    const message = { kind: "message" as const, messageId: "m1", role: "user" as const, parts: [{ kind: "text" as const, text: "hi" }], contextId: "ctx-1", taskId: "task-1" };
    await executor.execute(new RequestContext(message, "task-1", "ctx-1"), { publish: (event: any) => void published.push(event.kind === "status-update" ? `status ${event.status.state}` : event.kind), finished: () => {}, on: () => ({}) as any, off: () => ({}) as any, once: () => ({}) as any, removeAllListeners: () => ({}) as any } as any);
    expect(order).toEqual(["before text", "event greeter text greeter", "final completed"]);
    expect(published).toEqual(["task", "status working", "artifact-update", "status completed"]);
  });

  it("cancels a running task when its client asks: the tool is told to stop, the task ends canceled, and the model is not called again", async () => {
    const { agent, model, started, stopped } = shipmentWaiter();
    const server = await served(agent);
    const rpc = async (method: string, params: unknown) => {
      const response = await fetch(`${server.url}/jsonrpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: method, method, params }) });
      return (await response.json()) as any;
    };
    const submitted = await rpc("message/send", { message: { kind: "message", messageId: "m1", role: "user", parts: [text("Where is my parcel?")] }, configuration: { blocking: false } });
    await started;
    const cancelled = await rpc("tasks/cancel", { id: submitted.result.id });
    expect(cancelled.result.status.state).toBe("canceled");
    expect(cancelled.result.status.message.parts[0].text).toBe("The task was cancelled: its run was stopped, and a tool call it had started may have done part of its work.");
    expect(String(stopped()?.reason)).toContain(`A2A task ${submitted.result.id} was cancelled by its client.`);
    expect((await rpc("tasks/get", { id: submitted.result.id })).result.status.state).toBe("canceled");
    expect(model.remainingSteps).toBe(1);
    // A task that ended cannot be cancelled, as the A2A protocol has it.
    const again = await rpc("tasks/cancel", { id: submitted.result.id });
    expect(again.error.message).toMatch(/not cancelable/i);
  });
});

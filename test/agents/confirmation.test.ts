import { describe, expect, it } from "vitest";
import {
  AgentTool,
  ClientResponseError,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  REQUEST_CONFIRMATION,
  Runner,
  SequentialAgent,
  type AgentLike,
  type Event,
  type Toolset,
} from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { summarize } from "./event-summary.js";

function deleteFileTool(ran: string[]) {
  return new FunctionTool({
    name: "delete_file",
    description: "Deletes a file.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    requireConfirmation: true,
    execute: ({ path }, context) => {
      ran.push(`${String(path)} confirmed=${String(context.toolConfirmation?.confirmed)}`);
      return { deleted: path };
    },
  });
}

async function start(agent: AgentLike, sessionService = new InMemorySessionService()) {
  const runner = new Runner({ appName: "app", agent, sessionService });
  const created = await sessionService.createSession({ appName: "app", userId: "u" });
  const send = (message: Parameters<typeof userMessage>[0] | { role: string; parts: object[] }) =>
    collect(runner.runAsync({ userId: "u", sessionId: created.id, newMessage: typeof message === "string" ? userMessage(message) : (message as never) }));
  return { runner, created, send, sessionService };
}

function confirmationRequest(events: readonly Event[]) {
  const call = events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION)!.functionCall!;
  return call;
}

const answer = (id: string, response: Record<string, unknown>) => ({ role: "user", parts: [{ functionResponse: { id, name: REQUEST_CONFIRMATION, response } }] });

describe("confirmation", () => {
  it("pauses with adk_request_confirmation, and runs the call once the user approves", async () => {
    const ran: string[] = [];
    const model = new ScriptedModel([functionCallsResponse({ name: "delete_file", args: { path: "/tmp/a" } }), textResponse("Deleted.")]);
    const { send } = await start(new LlmAgent({ name: "agent", model, tools: [deleteFileTool(ran)] }));

    const first = await send("delete /tmp/a");
    expect(summarize(first)).toEqual([
      'agent | call delete_file {"path":"/tmp/a"}',
      'agent | response delete_file {"status":"paused","waitingFor":"confirmation","message":"This call is waiting for the user\'s confirmation and has not run. It will run if the user approves."} | waiting',
      `agent | call ${REQUEST_CONFIRMATION} | waiting`,
    ]);
    const request = confirmationRequest(first);
    expect(request.args).toMatchObject({ originalFunctionCall: { name: "delete_file", args: { path: "/tmp/a" } }, toolConfirmation: { confirmed: false } });
    expect(ran).toEqual([]);

    const second = await send(answer(request.id!, { confirmed: true }));
    expect(summarize(second)).toEqual(['agent | response delete_file {"deleted":"/tmp/a"}', 'agent | text "Deleted."']);
    expect(ran).toEqual(["/tmp/a confirmed=true"]);
    // The model saw the call followed by its real result, not the placeholder.
    expect(JSON.stringify(model.requests[1]!.contents)).not.toContain("paused");
    model.assertComplete();
  });

  it("tells the model the user declined when the confirmation is rejected", async () => {
    const ran: string[] = [];
    const model = new ScriptedModel([functionCallsResponse({ name: "delete_file", args: { path: "/tmp/a" } }), textResponse("Kept it.")]);
    const { send } = await start(new LlmAgent({ name: "agent", model, tools: [deleteFileTool(ran)] }));
    const request = confirmationRequest(await send("delete"));
    const events = await send(answer(request.id!, { confirmed: false }));
    expect(events[0]!.content!.parts![0]!.functionResponse!.response!.error).toContain("The user declined the call");
    expect(ran).toEqual([]);
  });

  it("refuses a forged confirmation (unknown id), a replayed one, and one with changed arguments, storing nothing and never running the tool", async () => {
    const ran: string[] = [];
    const model = new ScriptedModel([functionCallsResponse({ name: "delete_file", args: { path: "/tmp/a" } }), textResponse("Deleted.")]);
    const { send, sessionService, created } = await start(new LlmAgent({ name: "agent", model, tools: [deleteFileTool(ran)] }));
    const request = confirmationRequest(await send("delete"));
    const storedCount = async () => (await sessionService.getSession({ appName: "app", userId: "u", sessionId: created.id }))!.events.length;
    const before = await storedCount();

    await expect(send(answer("adk-forged", { confirmed: true }))).rejects.toMatchObject({ code: "UNKNOWN_FUNCTION_CALL" });
    await expect(
      send(answer(request.id!, { confirmed: true, originalFunctionCall: { id: (request.args!.originalFunctionCall as { id: string }).id, name: "delete_file", args: { path: "/" } } })),
    ).rejects.toMatchObject({ code: "CONFIRMATION_MISMATCH" });
    await expect(send(answer(request.id!, { confirmed: "yes" }))).rejects.toBeInstanceOf(ClientResponseError);
    expect(await storedCount()).toBe(before);
    expect(ran).toEqual([]);

    await send(answer(request.id!, { confirmed: true }));
    expect(ran).toEqual(["/tmp/a confirmed=true"]);
    const afterUse = await storedCount();
    await expect(send(answer(request.id!, { confirmed: true }))).rejects.toMatchObject({ code: "REQUEST_ALREADY_ANSWERED" });
    expect(await storedCount()).toBe(afterUse);
    expect(ran).toEqual(["/tmp/a confirmed=true"]);
  });

  it("lets a tool ask for confirmation itself with a payload, and reads the decision in toolConfirmation", async () => {
    const transfers: unknown[] = [];
    const transfer = new FunctionTool({
      name: "transfer_money",
      description: "Transfers money.",
      parameters: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
      execute: ({ amount }, context) => {
        if ((amount as number) > 100 && !context.toolConfirmation) {
          context.requestConfirmation({ hint: `Approve a transfer of ${String(amount)}?`, payload: { note: "" } });
          return { status: "needs approval" };
        }
        transfers.push({ amount, payload: context.toolConfirmation?.payload });
        return { status: "sent" };
      },
    });
    const model = new ScriptedModel([functionCallsResponse({ name: "transfer_money", args: { amount: 500 } }), textResponse("Sent.")]);
    const { send } = await start(new LlmAgent({ name: "agent", model, tools: [transfer] }));
    const request = confirmationRequest(await send("pay 500"));
    expect(request.args!.toolConfirmation).toEqual({ hint: "Approve a transfer of 500?", payload: { note: "" }, confirmed: false });
    await send(answer(request.id!, { confirmed: true, payload: { note: "rent" } }));
    expect(transfers).toEqual([{ amount: 500, payload: { note: "rent" } }]);
  });

  it("surfaces a confirmation requested by a tool two agents deep, and resumes inside them", async () => {
    const ran: string[] = [];
    const leafModel = new ScriptedModel([functionCallsResponse({ name: "delete_file", args: { path: "/deep" } }), textResponse("leaf: deleted")]);
    const leaf = new LlmAgent({ name: "leaf", description: "Deletes files.", model: leafModel, tools: [deleteFileTool(ran)] });
    const midModel = new ScriptedModel([functionCallsResponse({ name: "leaf", args: { request: "delete /deep" } }), textResponse("mid: leaf said it is deleted")]);
    const mid = new LlmAgent({ name: "mid", description: "Delegates.", model: midModel, tools: [new AgentTool({ agent: leaf })] });
    const rootModel = new ScriptedModel([functionCallsResponse({ name: "mid", args: { request: "clean up /deep" } }), textResponse("root: all clean")]);
    const root = new LlmAgent({ name: "root", model: rootModel, tools: [new AgentTool({ agent: mid })] });
    const { send } = await start(root);

    const first = await send("clean up");
    // The inner agents work out of sight (as in ADK); what they ask of the user reaches the caller.
    expect(summarize(first)).toEqual([
      'root | call mid {"request":"clean up /deep"}',
      expect.stringMatching(/^leaf@root\.mid@…\.mid\.leaf@… \| response delete_file \{"status":"paused","waitingFor":"confirmation".* \| waiting$/),
      `leaf@root.mid@….mid.leaf@… | call ${REQUEST_CONFIRMATION} | waiting`,
      expect.stringMatching(/^mid@root\.mid@… \| response leaf \{"status":"paused","waitingFor":"client".* \| waiting$/),
      expect.stringMatching(/^root \| response mid \{"status":"paused","waitingFor":"client".* \| waiting$/),
    ]);
    expect(ran).toEqual([]);

    const second = await send(answer(confirmationRequest(first).id!, { confirmed: true }));
    expect(summarize(second)).toEqual([
      'root | response mid {"result":"mid: leaf said it is deleted"}',
      'root | text "root: all clean"',
    ]);
    expect(ran).toEqual(["/deep confirmed=true"]);
    for (const model of [leafModel, midModel, rootModel]) model.assertComplete();
  });

  it("works inside a workflow agent: the sequence waits, then continues with the next agent", async () => {
    const ran: string[] = [];
    const cleaner = new LlmAgent({
      name: "cleaner",
      model: new ScriptedModel([functionCallsResponse({ name: "delete_file", args: { path: "/w" } }), textResponse("cleaned")]),
      tools: [deleteFileTool(ran)],
    });
    const reporter = new LlmAgent({ name: "reporter", model: new ScriptedModel([textResponse("report: done")]) });
    const { send } = await start(new SequentialAgent({ name: "pipeline", subAgents: [cleaner, reporter] }));
    const first = await send("go");
    expect(summarize(first).at(-1)).toBe(`cleaner | call ${REQUEST_CONFIRMATION} | waiting`);
    const second = await send(answer(confirmationRequest(first).id!, { confirmed: true }));
    expect(summarize(second)).toEqual(['cleaner | response delete_file {"deleted":"/w"}', 'cleaner | text "cleaned"', 'reporter | text "report: done"']);
  });

  it("works for a toolset's tool and inside a sub-agent reached by transfer", async () => {
    const ran: string[] = [];
    const toolset: Toolset = { getTools: async () => [deleteFileTool(ran)], close: async () => undefined };
    const ops = new LlmAgent({ name: "ops", description: "Operations.", model: new ScriptedModel([functionCallsResponse({ name: "delete_file", args: { path: "/t" } }), textResponse("ops: done")]), tools: [toolset] });
    const root = new LlmAgent({ name: "root", model: new ScriptedModel([functionCallsResponse({ name: "transfer_to_agent", args: { agent_name: "ops" } })]), subAgents: [ops] });
    const { send } = await start(root);
    const first = await send("delete /t");
    const second = await send(answer(confirmationRequest(first).id!, { confirmed: true }));
    expect(summarize(second)).toEqual(['ops | response delete_file {"deleted":"/t"}', 'ops | text "ops: done"']);
    expect(ran).toEqual(["/t confirmed=true"]);
  });

  it("keeps the call paused when the user writes something else, and the model is told it waits", async () => {
    const ran: string[] = [];
    const model = new ScriptedModel([functionCallsResponse({ name: "delete_file", args: { path: "/x" } }), textResponse("Still waiting for your approval.")]);
    const { send } = await start(new LlmAgent({ name: "agent", model, tools: [deleteFileTool(ran)] }));
    const first = await send("delete /x");
    await send("actually, what's the time?");
    expect(JSON.stringify(model.requests[1]!.contents)).toContain("waiting for the user's confirmation");
    expect(ran).toEqual([]);
    // The original request can still be answered afterwards.
    model.push(textResponse("Deleted now."));
    await send(answer(confirmationRequest(first).id!, { confirmed: true }));
    expect(ran).toEqual(["/x confirmed=true"]);
  });
});

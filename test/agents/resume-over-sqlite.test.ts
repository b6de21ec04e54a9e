import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentTool, createSessionService, FunctionTool, LlmAgent, LongRunningFunctionTool, REQUEST_CONFIRMATION, Runner, SequentialAgent, type Event } from "../../src/index.js";
import { collect, functionCallsResponse, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { tempDir } from "../support/temp-dir.js";
import { summarize } from "./event-summary.js";

const dir = tempDir();

/**
 * Each "process" opens the SQLite file afresh and builds new agents and a new
 * Runner: nothing carries over but what the file holds.
 */
async function processOver(file: string, agent: LlmAgent | SequentialAgent) {
  const sessionService = await createSessionService(`sqlite://${file}`);
  return { sessionService, runner: new Runner({ appName: "app", agent, sessionService }) };
}

describe("resuming over a SQLite session in a new Runner", () => {
  it("continues a long-running call when its result arrives later", async () => {
    const file = join(dir, "long-running.db");
    const makeAgent = (model: ScriptedModel) =>
      new LlmAgent({
        name: "reimbursement_agent",
        model,
        tools: [new LongRunningFunctionTool({ name: "ask_for_approval", description: "Asks a manager.", execute: () => ({ status: "pending", ticketId: "t-1" }) })],
      });
    const first = await processOver(file, makeAgent(new ScriptedModel([functionCallsResponse({ name: "ask_for_approval", args: {} })])));
    const session = await first.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(first.runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("Reimburse $500") }));
    const callId = events[0]!.longRunningToolIds![0]!;
    await first.sessionService.close();

    const model = new ScriptedModel([textResponse("Approved and paid.")]);
    const second = await processOver(file, makeAgent(model));
    const resumed = await collect(
      second.runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: callId, name: "ask_for_approval", response: { status: "approved" } } }] } }),
    );
    expect(summarize(resumed)).toEqual(['reimbursement_agent | text "Approved and paid."']);
    expect(model.requests[0]!.contents.at(-1)!.parts![0]!.functionResponse!.response).toEqual({ status: "approved" });
    await second.sessionService.close();
  });

  it("runs a confirmed call inside an agent tool inside a sequence after the restart, once", async () => {
    const file = join(dir, "confirmation.db");
    const ran: string[] = [];
    const build = (steps: { leaf: ScriptedModel; root: ScriptedModel; after: ScriptedModel }) => {
      const wipe = new FunctionTool({
        name: "wipe_disk",
        description: "Wipes a disk.",
        parameters: { type: "object", properties: { disk: { type: "string" } }, required: ["disk"] },
        requireConfirmation: true,
        execute: ({ disk }) => {
          ran.push(disk as string);
          return { wiped: disk };
        },
      });
      const leaf = new LlmAgent({ name: "operator", description: "Runs disk operations.", model: steps.leaf, tools: [wipe] });
      const root = new LlmAgent({ name: "admin", model: steps.root, tools: [new AgentTool({ agent: leaf })] });
      return new SequentialAgent({ name: "shift", subAgents: [root, new LlmAgent({ name: "reporter", model: steps.after })] });
    };
    const first = await processOver(
      file,
      build({
        leaf: new ScriptedModel([functionCallsResponse({ name: "wipe_disk", args: { disk: "sdb" } })]),
        root: new ScriptedModel([functionCallsResponse({ name: "operator", args: { request: "wipe sdb" } })]),
        after: new ScriptedModel([]),
      }),
    );
    const session = await first.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await collect(first.runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("wipe sdb") }));
    const request = requestOf(events);
    await first.sessionService.close();
    expect(ran).toEqual([]);

    const leaf = new ScriptedModel([textResponse("sdb wiped")]);
    const root = new ScriptedModel([textResponse("admin: done")]);
    const after = new ScriptedModel([textResponse("report: sdb wiped")]);
    const second = await processOver(file, build({ leaf, root, after }));
    const answer = { role: "user", parts: [{ functionResponse: { id: request.id, name: REQUEST_CONFIRMATION, response: { confirmed: true } } }] };
    const resumed = await collect(second.runner.runAsync({ userId: "u", sessionId: session.id, newMessage: answer, runConfig: { streamAgentToolEvents: true } }));
    expect(summarize(resumed)).toEqual([
      'operator@admin.operator@… | response wipe_disk {"wiped":"sdb"}',
      'operator@admin.operator@… | text "sdb wiped"',
      'admin | response operator {"result":"sdb wiped"}',
      'admin | text "admin: done"',
      'reporter | text "report: sdb wiped"',
    ]);
    expect(ran).toEqual(["sdb"]);
    // Used once: the same answer again is refused, in yet another process.
    await expect(collect(second.runner.runAsync({ userId: "u", sessionId: session.id, newMessage: answer }))).rejects.toMatchObject({ code: "REQUEST_ALREADY_ANSWERED" });
    expect(ran).toEqual(["sdb"]);
    await second.sessionService.close();
  });
});

function requestOf(events: readonly Event[]) {
  return events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === REQUEST_CONFIRMATION)!.functionCall!;
}

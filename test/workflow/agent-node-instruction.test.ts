import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { instructionText } from "../adk-compat/harness/instruction-text.js";

/** What a model was sent: its system instruction and the text of each content. */
interface Seen {
  instruction: string;
  contents: string[];
}

/** An ADK model that answers `answer` and records each request. */
function adkModel(seen: Seen[], answer: string): adk.BaseLlm {
  class Recording extends adk.BaseLlm {
    override async *generateContentAsync(request: adk.LlmRequest): AsyncGenerator<adk.LlmResponse, void> {
      seen.push({ instruction: instructionText(request.config?.systemInstruction), contents: request.contents.map((content) => (content.parts ?? []).map((part) => part.text ?? "").join("")) });
      yield { content: { role: "model", parts: [{ text: answer }] } };
    }
    override connect(): Promise<adk.BaseLlmConnection> {
      return Promise.reject(new Error("no live connection"));
    }
  }
  return new Recording({ model: "recording" });
}

/** A toolsmith model that answers `answer` and records each request. */
function toolsmithModel(seen: Seen[], answer: string): toolsmith.Model {
  return {
    name: "recording",
    async *generateContent(request: toolsmith.LlmRequest) {
      seen.push({ instruction: instructionText(request.config?.systemInstruction), contents: request.contents.map((content) => (content.parts ?? []).map((part) => part.text ?? "").join("")) });
      yield { content: { role: "model", parts: [{ text: answer }] } };
    },
  } as toolsmith.Model;
}

/**
 * `order -> writer`: the function node outputs an object; the agent node's instruction reads a field of its
 * input (`{input.item}`, `{input.missing?}`, `{input.absent}`) and of the node's output by name
 * (`<order.quantity from order>`). Returns what the model was sent and the events' authors and outputs.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function run(framework: any, model: (seen: Seen[]) => unknown) {
  const seen: Seen[] = [];
  const order = framework.node(() => ({ item: "tea", quantity: 3 }), { name: "order" });
  const writer = new framework.LlmAgent({
    name: "writer",
    model: model(seen),
    instruction: "Confirm {input.item} ({input.missing?}) x <order.quantity from order>; keep {input.absent} and <order.colour from order> as they are.",
  });
  const workflow = new framework.Workflow({ name: "shop", edges: [["START", order, writer]] });
  const runner = new framework.InMemoryRunner({ agent: workflow, appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: unknown[] = [];
  for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "buy" }] } })) {
    events.push({ author: event.author, output: event.output, path: event.nodeInfo?.path, messageAsOutput: event.nodeInfo?.messageAsOutput });
  }
  return { seen, events };
}

describe("an LLM agent as a workflow node, side by side with @google/adk", () => {
  it("gets its input as the user's message, sees only that turn, and fills {input.field} and <x.field from node> in its instruction", async () => {
    const ours = await run(toolsmith, (seen) => toolsmithModel(seen, "Three teas."));
    const theirs = await run(adk, (seen) => adkModel(seen, "Three teas."));
    console.log(JSON.stringify(ours, null, 1));
    // ADK's instruction begins with its identity lines, as toolsmith's does; the part written here is compared whole.
    expect(ours.seen.map((request) => ({ ...request, instruction: request.instruction.split("\n\n").at(-1) }))).toEqual(
      theirs.seen.map((request) => ({ ...request, instruction: request.instruction.split("\n\n").at(-1) })),
    );
    expect(ours.seen[0]!.instruction).toContain("Confirm tea () x 3; keep {input.absent} and <order.colour from order> as they are.");
    expect(ours.seen[0]!.contents).toEqual(['{"item":"tea","quantity":3}']);
    expect(ours.events).toEqual(theirs.events);
    expect(ours.events.at(-1)).toEqual({ author: "writer", output: "Three teas.", path: "shop.writer", messageAsOutput: true });
  });

  it("fills <x.field from node> in an instruction with no {placeholder} too (an instruction otherwise made once per agent)", async () => {
    const seen: Seen[] = [];
    const lookup = toolsmith.node(() => ({ orderId: "A-17" }), { name: "order_lookup" });
    const writer = new toolsmith.LlmAgent({ name: "writer", model: toolsmithModel(seen, "ok"), instruction: "About order <x.orderId from order_lookup>." });
    const workflow = new toolsmith.Workflow({ name: "w", edges: [["START", lookup, new toolsmith.JoinNode({ name: "facts" }), writer]] });
    const runner = new toolsmith.InMemoryRunner({ agent: workflow, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    for await (const _event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } }));
    expect(seen.map((request) => request.instruction.split("\n\n").at(-1))).toEqual(["About order A-17."]);
  });

  it("leaves the developer's agent as it was: its includeContents is still the default after the workflow ran", async () => {
    const seen: Seen[] = [];
    const writer = new toolsmith.LlmAgent({ name: "writer", model: toolsmithModel(seen, "ok") });
    const workflow = new toolsmith.Workflow({ name: "w", edges: [["START", writer]] });
    const runner = new toolsmith.InMemoryRunner({ agent: workflow, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    for await (const _event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "hi" }] } }));
    expect(writer.includeContents).toBe("default");
    expect(seen.length).toBe(1);
    // ADK sets "none" on the agent object itself (the difference docs/adk-compat.md lists).
    const adkWriter = new adk.LlmAgent({ name: "writer", model: adkModel([], "ok") });
    const adkRunner = new adk.InMemoryRunner({ agent: new adk.Workflow({ name: "w", edges: [["START", adkWriter]] }), appName: "app" });
    const adkSession = await adkRunner.sessionService.createSession({ appName: "app", userId: "u" });
    for await (const _event of adkRunner.runAsync({ userId: "u", sessionId: adkSession.id, newMessage: { role: "user", parts: [{ text: "hi" }] } }));
    expect(adkWriter.includeContents).toBe("none");
  });
});

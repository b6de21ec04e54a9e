import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, drain, runOnBoth, text, type Framework } from "./side-by-side.js";

/**
 * `runConfig.plainTextToolConfirmation` (what `adk run` turns on), on `@google/adk` 2.0 and on toolsmith: while a
 * tool call waits for its confirmation, a typed "yes" or "no" answers it; any other text is a message. Without the
 * option a typed "yes" is a message on both.
 */
describe("plainTextToolConfirmation, side by side with @google/adk 2.0", () => {
  /** A refund tool that needs a confirmation, run over two messages: the request, then `reply` as text. */
  async function refund(f: Framework, model: string, reply: string, plainTextToolConfirmation: boolean) {
    const refunded: number[] = [];
    const tool = new f.FunctionTool({
      name: "refund",
      description: "Refunds an order.",
      parameters: z.object({ order: z.number() }),
      requireConfirmation: true,
      execute: ({ order }: { order: number }) => {
        refunded.push(order);
        return { refunded: order };
      },
    });
    const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "clerk", model, tools: [tool] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const runConfig = plainTextToolConfirmation ? { plainTextToolConfirmation: true } : undefined;
    const first = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "refund order 7" }] }, runConfig }));
    const second = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: reply }] }, runConfig }));
    return { runner, events: [...first, ...second], output: refunded };
  }

  /** The tool's result the model got last, if any. */
  const toolResults = (requests: Array<{ contents: unknown[] }>) => JSON.stringify(requests.at(-1)?.contents ?? []).match(/"response":\{"refunded":7\}|"error":"[^"]*"/g) ?? [];

  it.each([" Yes ", "ok", "APPROVE"])("a typed %j confirms the waiting call: the tool runs on both", async (reply) => {
    const { adk, toolsmith } = await runOnBoth([call("refund", { order: 7 }), text("Refunded.")], (f, model) => refund(f, model, reply, true));
    expect(adk.output).toEqual([7]);
    expect(toolsmith.output).toEqual([7]);
    expect(toolsmith.events.at(-1)).toEqual(adk.events.at(-1));
    expect(toolResults(toolsmith.requests)).toEqual(toolResults(adk.requests));
  });

  it("a typed \"no\" declines it: the tool does not run on either", async () => {
    const { adk, toolsmith } = await runOnBoth([call("refund", { order: 7 }), text("Not refunded.")], (f, model) => refund(f, model, "no", true));
    expect(adk.output).toEqual([]);
    expect(toolsmith.output).toEqual([]);
    expect(toolsmith.events.at(-1)).toEqual(adk.events.at(-1));
  });

  it("any other text is a message, and the call still waits, on both", async () => {
    const { adk, toolsmith } = await runOnBoth([call("refund", { order: 7 }), text("Please answer yes or no.")], (f, model) => refund(f, model, "yes please", true));
    expect(adk.output).toEqual([]);
    expect(toolsmith.output).toEqual([]);
    expect(toolsmith.requests.at(-1)!.contents.at(-1)).toEqual(adk.requests.at(-1)!.contents.at(-1));
  });

  it("without the option, a typed \"yes\" is a message on both", async () => {
    const { adk, toolsmith } = await runOnBoth([call("refund", { order: 7 }), text("Please confirm in the dialog.")], (f, model) => refund(f, model, "yes", false));
    expect(adk.output).toEqual([]);
    expect(toolsmith.output).toEqual([]);
    expect(toolsmith.events.at(-1)).toEqual(adk.events.at(-1));
  });
});

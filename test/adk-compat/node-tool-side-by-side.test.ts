import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, runOn, text } from "./side-by-side.js";

/**
 * ADK 2's `NodeTool` (a graph workflow node offered to a model as a tool) on `@google/adk` 2.0 and on toolsmith:
 * the declaration the model gets, the result, the events each runner yields and stores, and the state.
 * Deliberate differences, asserted as such:
 * - the node's own events are stored on the tool's branch on both, but toolsmith yields them to the caller only with
 *   `streamAgentToolEvents` (as an agent run as a tool's), where ADK yields them;
 * - a node that throws: ADK's run ends at the model's call, with no response and no error (measured: the call is left
 *   unanswered); toolsmith gives the model the failure as the call's result, as for any tool that throws;
 * - a node that asks the person: both pause with its question, but ADK's answer runs the node afresh, which asks
 *   again (the answer is lost); toolsmith takes the node up with the answer, and the call gets its result.
 */

type Any = any;

async function program(framework: "adk" | "toolsmith", nodeBody: (ctx: Any, input: Any) => unknown, inputSchema: z.ZodType, args: Record<string, unknown>) {
  let stored: Any;
  let yielded: string[] = [];
  let thrown: string | undefined;
  const record = await runOn(framework, [call("lookup_order", args), text("Done.")], async (f, model) => {
    const node = new f.FunctionNode("lookup_order", nodeBody, { inputSchema, description: "Looks an order up." });
    const tool = new f.NodeTool(node);
    const agent = new f.LlmAgent({ name: "clerk", model, instruction: "Help.", tools: [tool] });
    const runner = new f.InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events: Any[] = [];
    try {
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Where is my order?" }] } })) events.push(event);
    } catch (error) {
      thrown = (error as Error).message;
    }
    stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
    yielded = events.filter((event) => !event.partial).map((event) => event.author);
    return { runner, events, output: tool._getDeclaration() };
  });
  const brief = (event: Any) => ({
    author: event.author,
    branch: event.branch?.replace(/@.*/, "@<call>"),
    parts: (event.content?.parts ?? []).map((part: Any) => (part.text !== undefined ? part.text : part.functionCall ? `call ${part.functionCall.name} ${JSON.stringify(part.functionCall.args)}` : part.functionResponse ? `response ${JSON.stringify(part.functionResponse.response)}` : Object.keys(part)[0])),
    output: event.output,
  });
  return { declaration: record.output as Any, stored: stored.events.map(brief) as Array<ReturnType<typeof brief>>, yielded, state: stored.state, requests: record.requests.length, thrown };
}

describe("NodeTool", () => {
  it("offers a node with an object input schema as a tool taking those arguments, runs it on the model's call, and answers with its output", async () => {
    const body = (ctx: Any, input: Any) => {
      ctx.state.set("last_order", input.orderId);
      return { orderId: input.orderId, status: "shipped" };
    };
    const schema = z.object({ orderId: z.string().describe("The order's id.") });
    const adk = await program("adk", body, schema, { orderId: "A-1" });
    const ours = await program("toolsmith", body, schema, { orderId: "A-1" });
    expect(adk.declaration).toMatchObject({ name: "lookup_order", description: "Looks an order up.", parameters: { properties: { orderId: { description: "The order's id." } }, required: ["orderId"] } });
    expect(ours.declaration).toMatchObject({ name: "lookup_order", description: "Looks an order up.", parameters: { properties: { orderId: { description: "The order's id." } }, required: ["orderId"] } });
    expect(adk.stored).toEqual([
      { author: "user", parts: ["Where is my order?"] },
      { author: "clerk", parts: ['call lookup_order {"orderId":"A-1"}'] },
      { author: "lookup_order", branch: "lookup_order@<call>", parts: ['{"orderId":"A-1","status":"shipped"}'], output: { orderId: "A-1", status: "shipped" } },
      { author: "clerk", parts: ['response {"orderId":"A-1","status":"shipped"}'] },
      { author: "clerk", parts: ["Done."] },
    ]);
    expect(ours.stored).toEqual(adk.stored);
    expect(ours.state).toEqual(adk.state);
    expect(adk.state).toEqual({ last_order: "A-1" });
    // The node's event reaches ADK's caller; toolsmith's caller sees it with streamAgentToolEvents, as an agent tool's.
    expect(adk.yielded).toEqual(["clerk", "lookup_order", "clerk", "clerk"]);
    expect(ours.yielded).toEqual(["clerk", "clerk", "clerk"]);
  });

  it("takes a `request` string for a node whose input is not an object", async () => {
    const body = (_ctx: Any, input: Any) => `echo: ${input}`;
    const adk = await program("adk", body, z.string(), { request: "hello" });
    const ours = await program("toolsmith", body, z.string(), { request: "hello" });
    expect(adk.declaration.parameters).toMatchObject({ properties: { request: {} }, required: ["request"] });
    expect(ours.declaration.parameters).toMatchObject({ type: "object", properties: { request: { type: "string" } }, required: ["request"] });
    expect(adk.stored.at(-2)).toEqual({ author: "clerk", parts: ['response {"result":"echo: hello"}'] });
    expect(ours.stored.at(-2)).toEqual(adk.stored.at(-2));
  });

  it("a node that throws: ADK's run ends at the call, leaving it unanswered; toolsmith gives the model the failure as the call's result", async () => {
    const body = () => {
      throw new Error("the order service is down");
    };
    const schema = z.object({ orderId: z.string() });
    const adk = await program("adk", body, schema, { orderId: "A-1" });
    const ours = await program("toolsmith", body, schema, { orderId: "A-1" });
    expect(adk).toMatchObject({ thrown: undefined, requests: 1, stored: [{ author: "user" }, { author: "clerk", parts: ['call lookup_order {"orderId":"A-1"}'] }] });
    expect(adk.stored).toHaveLength(2);
    expect(ours).toMatchObject({ thrown: undefined, requests: 2 });
    expect(ours.stored.find((event) => event.parts[0]?.startsWith("response"))?.parts[0]).toMatch(/the order service is down/);
    expect(ours.stored.at(-1)).toEqual({ author: "clerk", parts: ["Done."] });
  });

  it("is refused for a node without an input schema, with ADK's message", async () => {
    for (const framework of ["adk", "toolsmith"] as const) {
      const f: Any = framework === "adk" ? await import("@google/adk") : await import("../../src/index.js");
      expect(() => new f.NodeTool(new f.FunctionNode("plain", () => 1))).toThrow("Node 'plain' does not have an inputSchema defined. NodeTool requires an explicit input schema on the wrapped node.");
    }
  });

  it("a node that asks the person inside the call: both pause with the node's question; ADK loses the answer (it asks again), toolsmith takes the call up with it", async () => {
    const turns = async (framework: "adk" | "toolsmith") => {
      const runs: string[][] = [];
      await runOn(framework, [call("ask_flow", { request: "x" }), text("Done."), text("Done again.")], async (f, model) => {
        const ask = f.node(
          async function* ask() {
            yield new f.RequestInput({ interruptId: "ok", message: "Sure?" });
          },
          { name: "ask", inputSchema: z.string() },
        );
        const agent = new f.LlmAgent({ name: "clerk", model, instruction: "Help.", tools: [new f.NodeTool(ask, "ask_flow")] });
        const runner = new f.InMemoryRunner({ agent, appName: "app" });
        const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
        const messages = [{ role: "user", parts: [{ text: "go" }] }, { role: "user", parts: [{ functionResponse: { id: "ok", name: "adk_request_input", response: { result: "yes" } } }] }];
        for (const newMessage of messages) {
          const said: string[] = [];
          try {
            for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage })) {
              for (const part of event.content?.parts ?? []) said.push(part.text ?? (part.functionCall ? `${event.author} calls ${part.functionCall.name}` : part.functionResponse ? `${event.author} answers ${part.functionResponse.name}` : "?"));
            }
          } catch (error) {
            said.push(`threw ${(error as Error).message}`);
          }
          runs.push(said);
        }
        return { runner, events: [] };
      });
      return runs;
    };
    // ADK: the question reaches the person; the answer re-runs the node, which asks again, and the model goes on
    // with the tool's call unanswered: "yes" reaches nothing.
    expect(await turns("adk")).toEqual([
      ["clerk calls ask_flow", "ask calls adk_request_input"],
      ["ask calls adk_request_input", "Done."],
    ]);
    // toolsmith: the same question reaches the person, and the call holds a paused result meanwhile; the answer is
    // the node's output, so the call's result, and the model goes on with it.
    const ours = await turns("toolsmith");
    expect(ours[0]).toEqual(["clerk calls ask_flow", "ask calls adk_request_input", "clerk answers ask_flow"]);
    expect(ours[1]).toEqual(["clerk answers ask_flow", "Done."]);
  });
});

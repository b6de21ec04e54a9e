import { it } from "vitest";
import { InMemoryRunner, Workflow, createEvent, type NodeContext, type Event } from "toolsmith";
import { collect, userMessage } from "toolsmith/testing";

const show = (events: Event[]) => { for (const e of events) console.log(JSON.stringify({ author: e.author, branch: e.branch, output: e.output, nodeInfo: e.nodeInfo, lr: e.longRunningToolIds, err: e.errorCode, msg: e.errorMessage })); };
const ask = function ask(ctx: NodeContext) {
  return createEvent({ author: "ask", invocationId: ctx.invocationId, content: { role: "model", parts: [{ functionCall: { id: "call-1", name: "approve", args: {} } }] }, longRunningToolIds: ["call-1"] });
};
async function go(wf: Workflow) {
  const runner = new InMemoryRunner({ agent: wf, appName: "app" });
  const s = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  show(await collect(runner.runAsync({ userId: "u", sessionId: s.id, newMessage: userMessage("hi") })));
  console.log("----");
}
it("probe dyn interrupt", async () => {
  await go(new Workflow({ name: "wf", dynamicEntry: async (ctx) => { const a = await ctx.runNode(ask); return `after:${a.output}`; } }));
  const caller = async function caller(ctx: NodeContext) { const a = await ctx.runNode(ask); return `caller:${a.output}`; };
  const next = function next(_c: NodeContext, i: unknown) { return `next:${i}`; };
  await go(new Workflow({ name: "wf", edges: [["START", caller, next]] }));
  await go(new Workflow({ name: "wf", edges: [["START", ask, next]] }));
});
it("probe dyn throw", async () => {
  const boom = function boom() { throw new Error("kaput"); };
  await go(new Workflow({ name: "wf", dynamicEntry: async (ctx) => { await ctx.runNode(boom); return "x"; } }));
  const caller = async function caller(ctx: NodeContext) { await ctx.runNode(boom); return "y"; };
  await go(new Workflow({ name: "wf", edges: [["START", caller]] }));
});

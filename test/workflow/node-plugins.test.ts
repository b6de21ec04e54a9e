import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

// Both modules export the same names for this program; it is written once against either.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Framework = any;

/**
 * A workflow `double -> describe` under a plugin that answers for `double` before it runs (when asked) and
 * replaces `describe`'s output after it ran. Returns the events (author, output, node path) and the hooks' calls.
 */
async function runWithNodePlugin(framework: Framework, skipDouble: boolean) {
  const calls: string[] = [];
  class NodeWatcher extends framework.BasePlugin {
    constructor() {
      super("node_watcher");
    }
    async beforeNodeCallback({ node, nodeContext, input }: { node: { name: string }; nodeContext: { nodePath: string }; input: unknown }) {
      calls.push(`before ${nodeContext.nodePath} ${JSON.stringify(input)}`);
      return skipDouble && node.name === "double" ? 100 : undefined;
    }
    async afterNodeCallback({ node, nodeContext, output }: { node: { name: string }; nodeContext: { nodePath: string }; output: unknown }) {
      calls.push(`after ${nodeContext.nodePath} ${JSON.stringify(output)}`);
      return node.name === "describe" ? `${String(output)}!` : undefined;
    }
  }
  const double = framework.node((_ctx: unknown, input: string) => Number(input) * 2, { name: "double" });
  const describeIt = framework.node((_ctx: unknown, input: number) => `got ${input}`, { name: "describe" });
  const workflow = new framework.Workflow({ name: "wf", edges: [["START", double, describeIt]] });
  const runner = new framework.InMemoryRunner({ agent: workflow, appName: "app", plugins: [new NodeWatcher()] });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events: unknown[] = [];
  for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "21" }] } })) {
    events.push({ author: event.author, output: event.output, path: event.nodeInfo?.path });
  }
  return { calls, events };
}

describe("a plugin's node hooks (ADK 2's beforeNodeCallback and afterNodeCallback), side by side with @google/adk", () => {
  it("are called around every node, with the node's path, input and output; an output returned after replaces the node's", async () => {
    const [ours, theirs] = [await runWithNodePlugin(toolsmith, false), await runWithNodePlugin(adk, false)];
    console.log(JSON.stringify(ours, null, 1));
    expect(ours).toEqual(theirs);
    expect(ours.calls).toContain('after wf.describe "got 42"');
  });

  it("skip a node a before hook answers for: its answer is the node's output, sent as no event, and the next node gets it", async () => {
    const [ours, theirs] = [await runWithNodePlugin(toolsmith, true), await runWithNodePlugin(adk, true)];
    expect(ours).toEqual(theirs);
    expect(ours.calls).not.toContain("after wf.double 100");
    // `double` never ran: `describe` got the plugin's 100, not 42; its event shows its own output, and the
    // workflow's last event the output the after hook made of it.
    expect(ours.events).toEqual([
      { author: "describe", output: "got 100", path: "wf.describe" },
      { author: "wf", output: "got 100!", path: undefined },
    ]);
  });
});

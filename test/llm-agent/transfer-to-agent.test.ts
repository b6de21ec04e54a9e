/** transferTargets and transferToolFor on their own, beside request-and-model-call.test.ts: each flag alone, every workflow kind, the tool's text, cache and action. */
import { describe, expect, it } from "vitest";
import { LoopAgent } from "../../src/agents/loop-agent.js";
import { ParallelAgent } from "../../src/agents/parallel-agent.js";
import { SequentialAgent } from "../../src/agents/sequential-agent.js";
import { LlmAgent } from "../../src/llm-agent/llm-agent.js";
import { TRANSFER_TOOL_NAME, transferTargets, transferToolFor } from "../../src/llm-agent/transfer-to-agent-tool.js";
import { ToolContext } from "../../src/tools/tool-context.js";
import { invocationFor } from "./fixtures.js";

const names = (agents: readonly { name: string }[]) => agents.map((agent) => agent.name);

/** root → [sales → [quotes], support, ops]: an LLM agent tree with a grandchild. */
function tree(options: { disallowTransferToParent?: boolean; disallowTransferToPeers?: boolean } = {}) {
  const quotes = new LlmAgent({ name: "quotes", description: "Prices things." });
  const sales = new LlmAgent({ name: "sales", description: "Sells.", subAgents: [quotes], ...options });
  const support = new LlmAgent({ name: "support", description: "Fixes problems." });
  const ops = new LlmAgent({ name: "ops" });
  const root = new LlmAgent({ name: "root", description: "Front desk.", subAgents: [sales, support, ops] });
  return { root, sales, support, ops, quotes };
}

describe("transferTargets", () => {
  it("leaves out the parent with disallowTransferToParent and the peers with disallowTransferToPeers", () => {
    expect(names(transferTargets(tree({ disallowTransferToParent: true }).sales))).toEqual(["quotes", "support", "ops"]);
    expect(names(transferTargets(tree({ disallowTransferToPeers: true }).sales))).toEqual(["quotes", "root"]);
    expect(names(transferTargets(tree({ disallowTransferToParent: true, disallowTransferToPeers: true }).sales))).toEqual(["quotes"]);
  });

  it("offers neither parent nor peers under a workflow agent, which decides its own order", () => {
    for (const Workflow of [SequentialAgent, ParallelAgent, LoopAgent]) {
      const child = new LlmAgent({ name: "child", subAgents: [new LlmAgent({ name: "grandchild" })] });
      new Workflow({ name: "flow", subAgents: [child, new LlmAgent({ name: "sibling" })] });
      expect(names(transferTargets(child))).toEqual(["grandchild"]);
    }
  });

});

describe("transferToolFor", () => {
  it("declares transfer_to_agent with the allowed targets as an enum, and the same tool on every call", () => {
    const { sales } = tree({ disallowTransferToPeers: true });
    const transfer = transferToolFor(sales)!;
    expect(transfer.tool.name).toBe(TRANSFER_TOOL_NAME);
    expect(transfer.tool.declaration()).toMatchObject({
      name: TRANSFER_TOOL_NAME,
      description: expect.stringContaining("Call it alone"),
      parameters: { type: "object", properties: { agent_name: { type: "string", enum: ["quotes", "root"] } }, required: ["agent_name"] },
    });
    expect(transferToolFor(sales)).toBe(transfer);
  });

  it("tells the model what each target does, with a stand-in for a missing description", () => {
    const { sales } = tree();
    expect(transferToolFor(sales)!.instruction).toBe(
      [
        "Other agents can take over when they fit the user's request better:",
        "- quotes: Prices things.",
        "- root: Front desk.",
        "- support: Fixes problems.",
        "- ops: (no description)",
        "To hand over, call transfer_to_agent with the agent's name. If you can answer yourself, answer.",
      ].join("\n"),
    );
  });

  it("refuses the agent's own name, a missing name and one that is not a string as arguments", () => {
    const { tool } = transferToolFor(tree().support)!;
    expect(tool.checkArguments!({ agent_name: "support" }).ok).toBe(false);
    expect(tool.checkArguments!({}).ok).toBe(false);
    expect(tool.checkArguments!({ agent_name: 3 }).ok).toBe(false);
  });

  it("records the hand-over on the call's actions when it runs, and reports it", async () => {
    const { root } = tree();
    const { tool } = transferToolFor(root)!;
    const context = new ToolContext({ invocation: await invocationFor(root), functionCallId: "t1" });
    expect(await tool.run({ agent_name: "support" }, context)).toEqual({ status: "success", transferred_to: "support" });
    expect(context.actions.transferToAgent).toBe("support");
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOnBoth, runTurn, text, type Framework } from "./side-by-side.js";

/**
 * ADK's public members of agents that programs call outside a run (`clone`, `canonicalInstruction`,
 * `canonicalTools`, `validateOutput`), run on `@google/adk` 2.0 and on toolsmith with the same program: what each
 * returns, and a run of the clone, must be the same.
 */

function describeTree(agent: { name: string; parentAgent?: { name: string }; subAgents: unknown[] }): unknown {
  return { name: agent.name, parent: agent.parentAgent?.name ?? null, children: (agent.subAgents as Array<typeof agent>).map(describeTree) };
}

describe("agent members outside a run, side by side with @google/adk 2.0", () => {
  it("clone: a detached agent of the same class, options overridden, sub-agents cloned, lists copied, the original untouched", async () => {
    const script = [text("From the clone.")];
    const { adk, toolsmith } = await runOnBoth(script, async (f: Framework, model) => {
      const lookup = new f.FunctionTool({ name: "lookup", description: "Looks up.", parameters: z.object({ q: z.string() }), execute: ({ q }: { q: string }) => ({ q }) });
      const helper = new f.LlmAgent({ name: "helper", model, instruction: "Help." });
      const root = new f.LlmAgent({ name: "root", model, instruction: "Be brief.", tools: [lookup], subAgents: [helper] });
      const copy = root.clone({ name: "copy", instruction: "Be very brief." });
      const refused = (() => {
        try {
          root.clone({ parentAgent: helper });
          return "cloned";
        } catch {
          return "refused";
        }
      })();
      const { runner, events } = await runTurn(f, copy, "hi");
      return {
        runner,
        events,
        output: {
          sameClass: copy.constructor === root.constructor,
          tree: describeTree(copy),
          original: describeTree(root),
          instruction: [root.instruction, copy.instruction],
          childIsNew: copy.subAgents[0] !== helper,
          toolsCopied: copy.tools !== root.tools && copy.tools[0] === lookup,
          refused,
        },
      };
    });
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.output).toMatchObject({ sameClass: true, tree: { name: "copy", parent: null, children: [{ name: "helper", parent: "copy", children: [] }] }, refused: "refused" });
    expect(toolsmith.events).toEqual(adk.events);
    // The clone's identity and instruction; the transfer lines after them are worded differently on purpose
    // (docs/adk-compat.md).
    const opening = (instruction: string) => instruction.split("\n\n").slice(0, 2);
    expect(toolsmith.requests.map((request) => opening(request.systemInstruction))).toEqual(adk.requests.map((request) => opening(request.systemInstruction)));
    expect(opening(toolsmith.requests[0]!.systemInstruction)[1]).toBe("Be very brief.");
  });

  it("canonicalInstruction and canonicalTools give a callback the agent's instruction and tools, toolsets listed", async () => {
    const script = [text("ok"), text("ok")];
    const { adk, toolsmith } = await runOnBoth(script, async (f: Framework, model) => {
      const seen: unknown[] = [];
      const echo = new f.FunctionTool({ name: "echo", description: "Echoes.", parameters: z.object({ text: z.string() }), execute: ({ text: said }: { text: string }) => ({ said }) });
      const listed = new f.FunctionTool({ name: "listed", description: "From a toolset.", parameters: z.object({}), execute: () => ({}) });
      class OneToolset extends f.BaseToolset {
        constructor() {
          super([]);
        }
        async getTools() {
          return [listed];
        }
        async close() {}
      }
      const record = async (agent: { canonicalInstruction(context: unknown): Promise<unknown>; canonicalTools(context?: unknown): Promise<Array<{ name: string }>> }, context: unknown) => {
        seen.push({ instruction: await agent.canonicalInstruction(context), tools: (await agent.canonicalTools(context)).map((tool) => tool.name) });
      };
      const fixed: { canonicalInstruction(context: unknown): Promise<unknown>; canonicalTools(context?: unknown): Promise<Array<{ name: string }>> } = new f.LlmAgent({
        name: "fixed",
        model,
        instruction: "Greet {user_name?}.",
        tools: [echo, new OneToolset()],
        beforeModelCallback: async ({ context }: { context: unknown }) => record(fixed, context),
      });
      await runTurn(f, fixed, "hi");
      const provided: typeof fixed = new f.LlmAgent({
        name: "provided",
        model,
        instruction: async () => "Made by a provider.",
        beforeModelCallback: async ({ context }: { context: unknown }) => record(provided, context),
      });
      const { runner, events } = await runTurn(f, provided, "hi");
      return { runner, events, output: seen };
    });
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.output).toEqual([
      { instruction: { instruction: "Greet {user_name?}.", requireStateInjection: true }, tools: ["echo", "listed"] },
      { instruction: { instruction: "Made by a provider.", requireStateInjection: false }, tools: [] },
    ]);
  });

  it("validateOutput returns a value that matches the outputSchema and throws for one that does not", async () => {
    const { adk, toolsmith } = await runOnBoth([], async (f: Framework, model) => {
      const agent = new f.LlmAgent({ name: "capital", model, outputSchema: z.object({ capital: z.string(), population: z.number() }) });
      const outcome = (value: unknown) => {
        try {
          return { returned: agent.validateOutput(value) };
        } catch {
          return "threw";
        }
      };
      return { runner: undefined, events: [], output: [outcome({ capital: "Paris", population: 2100000 }), outcome({ capital: "Paris" }), outcome("Paris")] };
    });
    expect(toolsmith.output).toEqual(adk.output);
    expect(toolsmith.output).toEqual([{ returned: { capital: "Paris", population: 2100000 } }, "threw", "threw"]);
  });
});

/**
 * ADK's agent members toolsmith now has (`clone`, `canonicalInstruction`, `canonicalTools`, `validateOutput`):
 * what ADK does is compared by running both in test/adk-compat/agent-members-side-by-side.test.ts; these show
 * the cases a user meets beyond it: workflow agents, replaced sub-agents, lists that stay apart, and the errors.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BaseToolset, FunctionTool, LlmAgent, LoopAgent, SequentialAgent, isToolsmithError, type Tool } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { createReadonlyContext } from "../support/tool-context.js";

const model = new ScriptedModel([]);
const noop = (name: string) => new FunctionTool({ name, description: name, parameters: z.object({}), execute: () => ({}) });

describe("BaseAgent.clone", () => {
  it("clones a workflow tree, keeping each agent's class and options, with every clone new and the original tree as it was", () => {
    const writer = new LlmAgent({ name: "writer", model, instruction: "Write." });
    const critic = new LlmAgent({ name: "critic", model, instruction: "Critique." });
    const loop = new LoopAgent({ name: "refine", subAgents: [writer, critic], maxIterations: 3 });
    const pipeline = new SequentialAgent({ name: "pipeline", subAgents: [loop] });
    const copy = pipeline.clone({ name: "pipeline_copy" });
    expect(copy).toBeInstanceOf(SequentialAgent);
    const copiedLoop = copy.subAgents[0] as LoopAgent;
    expect(copiedLoop).toBeInstanceOf(LoopAgent);
    expect(copiedLoop).not.toBe(loop);
    expect(copiedLoop.maxIterations).toBe(3);
    expect(copiedLoop.subAgents.map((agent) => [agent.name, (agent as LlmAgent).instruction, agent.parentAgent?.name])).toEqual([
      ["writer", "Write.", "refine"],
      ["critic", "Critique.", "refine"],
    ]);
    expect(copiedLoop.parentAgent).toBe(copy);
    expect([writer.parentAgent, loop.parentAgent, pipeline.name]).toEqual([loop, pipeline, "pipeline"]);
  });

  it("takes other sub-agents when given, and keeps its tools and callbacks lists apart from the original's", () => {
    const before = () => undefined;
    const original = new LlmAgent({ name: "root", model, tools: [noop("a")], beforeModelCallback: [before], subAgents: [new LlmAgent({ name: "old_child", model })] });
    const replacement = new LlmAgent({ name: "new_child", model });
    const copy = original.clone({ subAgents: [replacement] });
    expect(copy.subAgents).toEqual([replacement]);
    expect(replacement.parentAgent).toBe(copy);
    (copy.tools as Tool[]).push(noop("b"));
    (copy.beforeModelCallback as Array<() => undefined>).push(() => undefined);
    expect(original.tools.map((tool) => (tool as Tool).name)).toEqual(["a"]);
    expect(original.beforeModelCallback).toEqual([before]);
  });

  it("refuses to set parentAgent, saying where the clone goes instead, and leaves the original as it was", () => {
    const child = new LlmAgent({ name: "child", model });
    const root = new LlmAgent({ name: "root", model, subAgents: [child] });
    const error = (() => {
      try {
        root.clone({ parentAgent: child });
      } catch (caught) {
        return caught;
      }
    })();
    expect(isToolsmithError(error) && error.code).toBe("UNSUPPORTED_OPTION");
    expect((error as Error).message).toBe('Agent "root": clone cannot set parentAgent; give the clone to its parent\'s subAgents instead.');
    expect(root.subAgents).toEqual([child]);
    expect(child.parentAgent).toBe(root);
  });

  it("refuses an option LlmAgent does not know, as the constructor does", () => {
    const agent = new LlmAgent({ name: "root", model });
    expect(() => agent.clone({ globalInstruction: "Be kind." } as never)).toThrow(/the option globalInstruction is not supported: add new GlobalInstructionPlugin/);
  });
});

describe("LlmAgent.canonicalInstruction and canonicalTools", () => {
  it("give an agent without an instruction the empty one, still to be filled from state", async () => {
    const context = await createReadonlyContext();
    expect(await new LlmAgent({ name: "plain", model }).canonicalInstruction(context)).toEqual({ instruction: "", requireStateInjection: true });
  });

  it("list toolsets' tools in order, and name the toolset and agent when one cannot list", async () => {
    class Listing extends BaseToolset {
      constructor(private readonly names: string[] | Error) {
        super([]);
      }
      async getTools(): Promise<Tool[]> {
        if (this.names instanceof Error) throw this.names;
        return this.names.map(noop);
      }
      async close(): Promise<void> {}
    }
    const context = await createReadonlyContext();
    const agent = new LlmAgent({ name: "tooled", model, tools: [noop("first"), new Listing(["second", "third"]), noop("fourth")] });
    expect((await agent.canonicalTools(context)).map((tool) => tool.name)).toEqual(["first", "second", "third", "fourth"]);
    expect((await new LlmAgent({ name: "bare", model, tools: [noop("only")] }).canonicalTools()).map((tool) => tool.name)).toEqual(["only"]);
    const failing = new LlmAgent({ name: "broken", model, tools: [new Listing(new Error("server down"))] });
    const error = await failing.canonicalTools(context).catch((caught: unknown) => caught);
    expect(isToolsmithError(error) && error.code).toBe("TOOLSET_FAILED");
    expect((error as Error).message).toContain('A toolset of agent "broken" (Listing) could not list its tools: server down.');
  });
});

describe("LlmAgent.validateOutput", () => {
  it("fills the schema's defaults, names each mismatch with OUTPUT_SCHEMA_MISMATCH, and passes any value through without a schema", () => {
    const agent = new LlmAgent({ name: "capital", model, outputSchema: z.object({ capital: z.string(), unit: z.string().default("people"), population: z.number() }) });
    expect(agent.validateOutput({ capital: "Paris", population: 2 })).toEqual({ capital: "Paris", unit: "people", population: 2 });
    const error = (() => {
      try {
        agent.validateOutput({ capital: 7 });
      } catch (caught) {
        return caught;
      }
    })();
    expect(isToolsmithError(error) && error.code).toBe("OUTPUT_SCHEMA_MISMATCH");
    // A zod schema checks with zod itself, in its words (as a FunctionTool's zod parameters do).
    expect((error as Error).message).toBe('Agent "capital": the value does not match its outputSchema: capital: Invalid input: expected string, received number; population: Invalid input: expected number, received undefined. Give a value of the schema\'s shape.');
    expect(new LlmAgent({ name: "free", model }).validateOutput("anything")).toBe("anything");
  });
});

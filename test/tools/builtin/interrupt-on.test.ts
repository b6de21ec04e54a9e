import { describe, expect, it } from "vitest";
import { FunctionTool, type Tool, type Toolset } from "../../../src/index.js";
import { applyInterruptOn, applyInterruptOnToAll } from "../../../src/tools/builtin/index.js";
import { toolHarness } from "./tool-harness.js";

const tool = (name: string, asks = false): Tool => new FunctionTool({ name, description: name, requireConfirmation: asks, execute: () => ({ ran: name }) });
const toolsetOf = (tools: Tool[]): Toolset & { closed: number } => {
  const toolset = { closed: 0, getTools: async () => tools, close: async () => void toolset.closed++ };
  return toolset;
};

describe("applyInterruptOnToAll", () => {
  it("makes the named tools ask, tools given directly and tools a toolset gives alike, and closes the toolset through the wrapper", async () => {
    const harness = await toolHarness();
    const context = harness.context();
    const inner = toolsetOf([tool("write_file"), tool("read_file")]);
    const [direct, wrapped] = applyInterruptOnToAll([tool("execute"), inner], { execute: true, write_file: true });
    expect(await (direct as Tool).requiresConfirmation!({}, context)).toBe(true);
    const fromToolset = await (wrapped as Toolset).getTools(context);
    expect(await Promise.all(fromToolset.map(async (each) => [each.name, (await each.requiresConfirmation?.({}, context)) ?? false]))).toEqual([
      ["write_file", true],
      ["read_file", false],
    ]);
    await (wrapped as Toolset).close();
    expect(inner.closed).toBe(1);
  });

  it("keeps a tool that asks by itself asking, and a rule may decide per call", async () => {
    const harness = await toolHarness();
    const context = harness.context();
    const [asks, big] = applyInterruptOn([tool("delete", true), tool("upload")], { delete: false, upload: (args) => Number(args.bytes) > 1000 });
    expect(await asks!.requiresConfirmation!({}, context)).toBe(true);
    expect(await big!.requiresConfirmation!({ bytes: 10 }, context)).toBe(false);
    expect(await big!.requiresConfirmation!({ bytes: 5000 }, context)).toBe(true);
  });

  it("matches only names the rules really hold, so tools named like Object's members do not ask", async () => {
    const harness = await toolHarness();
    const context = harness.context();
    const tools = applyInterruptOn([tool("toString"), tool("constructor"), tool("hasOwnProperty")], { write_file: true });
    for (const each of tools) expect((await each.requiresConfirmation?.({}, context)) ?? false).toBe(false);
  });

  it("returns the same list when there are no rules", () => {
    const entries = [tool("a"), toolsetOf([])];
    expect(applyInterruptOnToAll(entries, undefined)).toEqual(entries);
  });
});

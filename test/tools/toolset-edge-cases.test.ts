/**
 * filterToolset, prefixToolset, renameTool and resolveTools: the cases
 * toolset-wrappers.test.ts leaves out (missing and empty filter lists, changing
 * toolsets, stacked prefixes, members a wrapped tool forwards or leaves out,
 * a toolset clashing with a plain tool).
 */
import { describe, expect, it } from "vitest";
import { BaseTool, FunctionTool, filterToolset, isToolset, prefixToolset, renameTool } from "../../src/index.js";
import type { LlmRequest, ReadonlyContext, Tool, Toolset } from "../../src/index.js";
import { assertUniqueToolNames, resolveTools } from "../../src/tools/resolve-tools.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";

/** A toolset of plain function tools that answer with their own name, counting getTools and close calls. */
function namedToolset(names: string[]) {
  const calls = { getTools: 0, close: 0 };
  const toolset: Toolset = {
    async getTools() {
      calls.getTools++;
      return names.map((name) => new FunctionTool({ name, description: `The ${name} tool.`, execute: () => ({ ran: name }) }));
    },
    async close() {
      calls.close++;
    },
  };
  return { toolset, calls };
}

const namesOf = (tools: readonly Tool[]) => tools.map((tool) => tool.name);

describe("filterToolset", () => {
  it("keeps the tools a list names, in the toolset's own order", async () => {
    const { toolset } = namedToolset(["read", "write", "delete", "list"]);
    const tools = await filterToolset(toolset, ["list", "read", "missing"]).getTools(await createReadonlyContext());
    expect(namesOf(tools)).toEqual(["read", "list"]);
  });

  it("keeps nothing for an empty list", async () => {
    const { toolset } = namedToolset(["read"]);
    expect(await filterToolset(toolset, []).getTools(await createReadonlyContext())).toEqual([]);
  });
  it("asks the toolset again on every call, so a changing toolset is followed", async () => {
    let names = ["a"];
    const changing: Toolset = {
      async getTools() {
        return names.map((name) => new FunctionTool({ name, description: name, execute: () => 1 }));
      },
      async close() {},
    };
    const filtered = filterToolset(changing, ["a", "b"]);
    const context = await createReadonlyContext();
    expect(namesOf(await filtered.getTools(context))).toEqual(["a"]);
    names = ["a", "b", "c"];
    expect(namesOf(await filtered.getTools(context))).toEqual(["a", "b"]);
  });
});

describe("prefixToolset", () => {
  it("stacks prefixes, the outer one first", async () => {
    const twice = prefixToolset(prefixToolset(namedToolset(["search"]).toolset, "web"), "team");
    expect(namesOf(await twice.getTools(await createReadonlyContext()))).toEqual(["team_web_search"]);
  });
});

describe("renameTool", () => {
  it("forwards argument checks, confirmation, request changes, run, isLongRunning and timeoutMs to the tool", async () => {
    const log: string[] = [];
    const original: Tool = {
      name: "orig",
      description: "Original.",
      isLongRunning: true,
      timeoutMs: 900,
      declaration: () => ({ name: "orig", description: "Original.", parameters: { type: "object", properties: { n: { type: "integer" } } } }),
      run: async (args, context) => {
        log.push(`run ${JSON.stringify(args)} ${context.functionCallId}`);
        return { doubled: (args.n as number) * 2 };
      },
      checkArguments: (args) => (typeof args.n === "number" ? { ok: true, value: { n: args.n } } : { ok: false, issues: [{ field: "n", problem: "must be number" }] }),
      requiresConfirmation: (args) => (args.n as number) > 10,
      processLlmRequest: ({ llmRequest: request }) => {
        log.push(`request ${request.model ?? ""}`);
      },
    };
    const renamed = renameTool(original, "ext_orig");
    const context = await createToolContext();
    expect(renamed.name).toBe("ext_orig");
    expect(renamed.description).toBe("Original.");
    expect(renamed.isLongRunning).toBe(true);
    expect(renamed.timeoutMs).toBe(900);
    expect(renamed.declaration()!.name).toBe("ext_orig");
    expect(original.declaration()!.name).toBe("orig");
    expect(renamed.checkArguments!({ n: "x" })).toEqual({ ok: false, issues: [{ field: "n", problem: "must be number" }] });
    expect(await renamed.requiresConfirmation!({ n: 11 }, context)).toBe(true);
    expect(await renamed.requiresConfirmation!({ n: 1 }, context)).toBe(false);
    await renamed.processLlmRequest!({ llmRequest: { model: "m" } as LlmRequest, toolContext: context });
    expect(await renamed.run({ n: 4 }, context)).toEqual({ doubled: 8 });
    expect(log).toEqual(["request m", "run {\"n\":4} call-1"]);
  });

  it("leaves the optional members out when the tool has none, so the runner checks against the declaration", () => {
    const plain: Tool = { name: "plain", description: "", declaration: () => ({ name: "plain", description: "" }), run: async () => 1 };
    const renamed = renameTool(plain, "other");
    expect(renamed.checkArguments).toBeUndefined();
    expect(renamed.requiresConfirmation).toBeUndefined();
    // BaseTool's own processLlmRequest, which does nothing and which the loop does not call.
    expect(renamed.processLlmRequest).toBe(BaseTool.prototype.processLlmRequest);
  });
  it("is a BaseTool, as ADK's prefixed tools are, and carries runsWhenDeclined and timeoutMs, so a prefixed MCP tool still hears a person's no", async () => {
    const asking: Tool = { name: "ask", description: "", runsWhenDeclined: true, timeoutMs: 500, declaration: () => ({ name: "ask", description: "" }), run: async (args) => args };
    const renamed = renameTool(asking, "mcp_ask");
    expect(renamed).toBeInstanceOf(BaseTool);
    expect([renamed.runsWhenDeclined, renamed.timeoutMs]).toEqual([true, 500]);
    expect((renamed as BaseTool)._getDeclaration()).toEqual({ name: "mcp_ask", description: "" });
    expect(await (renamed as BaseTool).checkRequireConfirmation({})).toBe(false);
  });
  it("reads the tool's declaration each time, so a tool whose declaration changes is followed", () => {
    let description = "first";
    const changing: Tool = { name: "t", description: "", declaration: () => ({ name: "t", description }), run: async () => 1 };
    const renamed = renameTool(changing, "r");
    expect(renamed.declaration()!.description).toBe("first");
    description = "second";
    expect(renamed.declaration()).toEqual({ name: "r", description: "second" });
  });
});

describe("resolveTools", () => {
  it("hands each toolset the context it was given", async () => {
    const received: ReadonlyContext[] = [];
    const toolset: Toolset = {
      async getTools(context) {
        received.push(context);
        return [];
      },
      async close() {},
    };
    const context = await createReadonlyContext();
    await resolveTools([toolset, toolset], context, "agent");
    expect(received).toEqual([context, context]);
  });

  it("refuses a toolset's tool that has the name of a tool listed directly, naming the agent, the name and the fix", async () => {
    const search = new FunctionTool({ name: "search", description: "", execute: () => 1 });
    await expect(resolveTools([search, namedToolset(["search"]).toolset], await createReadonlyContext(), "helper")).rejects.toMatchObject({
      name: "ConfigurationError",
      code: "DUPLICATE_TOOL_NAME",
      message: 'Agent "helper" has more than one tool named "search". Rename one, or give a toolset a prefix with prefixToolset(toolset, prefix).',
    });
  });
});

describe("assertUniqueToolNames", () => {
  const tool = (name: string) => new FunctionTool({ name, description: "", execute: () => 1 });
  it("names every duplicated name once, however often it repeats", () => {
    expect(() => assertUniqueToolNames([tool("a"), tool("b"), tool("a"), tool("a"), tool("b"), tool("c")], "agent")).toThrow(
      'Agent "agent" has more than one tool named "a", "b".',
    );
  });
});

describe("isToolset", () => {
  it("tells a toolset (with getTools) from a tool", () => {
    expect(isToolset(namedToolset([]).toolset)).toBe(true);
    expect(isToolset(new FunctionTool({ name: "t", description: "", execute: () => 1 }))).toBe(false);
  });
});

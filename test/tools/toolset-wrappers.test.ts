/**
 * filterToolset, prefixToolset, renameTool and resolveTools called directly:
 * which tools an agent ends up offering, under which names, and what each
 * wrapped tool still does as itself.
 */
import { describe, expect, it } from "vitest";
import { FunctionTool, filterToolset, isToolset, prefixToolset, renameTool } from "../../src/index.js";
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

  it("asks a predicate about each tool with the read-only context, so the choice can depend on the user", async () => {
    const { toolset } = namedToolset(["read", "admin_reset"]);
    const seen: string[] = [];
    const filtered = filterToolset(toolset, (tool, context) => {
      seen.push(`${tool.name}@${context.userId}`);
      return !tool.name.startsWith("admin_") || context.userId === "root";
    });
    expect(namesOf(await filtered.getTools(await createReadonlyContext()))).toEqual(["read"]);
    expect(seen).toEqual(["read@user-1", "admin_reset@user-1"]);
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

  it("forwards close to the toolset", async () => {
    const { toolset, calls } = namedToolset(["a"]);
    await filterToolset(toolset, ["a"]).close();
    expect(calls.close).toBe(1);
  });
});

describe("prefixToolset", () => {
  it("prefixes every tool's name and its declaration's name, keeping the rest of the declaration", async () => {
    const { toolset } = namedToolset(["read", "write"]);
    const tools = await prefixToolset(toolset, "fs").getTools(await createReadonlyContext());
    expect(namesOf(tools)).toEqual(["fs_read", "fs_write"]);
    expect(tools[0]!.declaration()).toEqual({ name: "fs_read", description: "The read tool.", parameters: { type: "object", properties: {} } });
    expect(tools[0]!.description).toBe("The read tool.");
  });

  it("filters by the toolset's own names when the filter is inside the prefix, and by prefixed names when outside", async () => {
    const context = await createReadonlyContext();
    const inner = prefixToolset(filterToolset(namedToolset(["read", "write"]).toolset, ["read"]), "fs");
    expect(namesOf(await inner.getTools(context))).toEqual(["fs_read"]);
    const outerByOwnName = filterToolset(prefixToolset(namedToolset(["read", "write"]).toolset, "fs"), ["read"]);
    expect(await outerByOwnName.getTools(context)).toEqual([]);
    const outerByPrefixedName = filterToolset(prefixToolset(namedToolset(["read", "write"]).toolset, "fs"), ["fs_write"]);
    expect(namesOf(await outerByPrefixedName.getTools(context))).toEqual(["fs_write"]);
  });

  it("stacks prefixes, the outer one first", async () => {
    const twice = prefixToolset(prefixToolset(namedToolset(["search"]).toolset, "web"), "team");
    expect(namesOf(await twice.getTools(await createReadonlyContext()))).toEqual(["team_web_search"]);
  });

  it("runs the tool as itself under the new name", async () => {
    const [tool] = await prefixToolset(namedToolset(["read"]).toolset, "fs").getTools(await createReadonlyContext());
    expect(await tool!.run({}, await createToolContext())).toEqual({ ran: "read" });
  });

  it("forwards close to the toolset", async () => {
    const { toolset, calls } = namedToolset(["a"]);
    await prefixToolset(toolset, "p").close();
    expect(calls.close).toBe(1);
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
      processLlmRequest: (request) => {
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
    await renamed.processLlmRequest!({ model: "m" } as LlmRequest, context);
    expect(await renamed.run({ n: 4 }, context)).toEqual({ doubled: 8 });
    expect(log).toEqual(["request m", "run {\"n\":4} call-1"]);
  });

  it("leaves the optional members out when the tool has none, so the runner checks against the declaration", () => {
    const plain: Tool = { name: "plain", description: "", declaration: () => ({ name: "plain", description: "" }), run: async () => 1 };
    const renamed = renameTool(plain, "other");
    expect(renamed.checkArguments).toBeUndefined();
    expect(renamed.requiresConfirmation).toBeUndefined();
    expect(renamed.processLlmRequest).toBeUndefined();
  });

  it("keeps a hidden tool hidden from the model", () => {
    const hidden: Tool = { name: "hidden", description: "", declaration: () => undefined, run: async () => 1 };
    expect(renameTool(hidden, "still_hidden").declaration()).toBeUndefined();
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
  it("expands each toolset in place, keeping the order of the agent's list", async () => {
    const single = new FunctionTool({ name: "first", description: "", execute: () => 1 });
    const last = new FunctionTool({ name: "last", description: "", execute: () => 1 });
    const tools = await resolveTools([single, namedToolset(["x", "y"]).toolset, last], await createReadonlyContext(), "agent");
    expect(namesOf(tools)).toEqual(["first", "x", "y", "last"]);
  });

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

  it("resolves two toolsets with the same names once one of them has a prefix", async () => {
    const tools = await resolveTools([namedToolset(["search"]).toolset, prefixToolset(namedToolset(["search"]).toolset, "web")], await createReadonlyContext(), "agent");
    expect(namesOf(tools)).toEqual(["search", "web_search"]);
  });
});

describe("assertUniqueToolNames", () => {
  const tool = (name: string) => new FunctionTool({ name, description: "", execute: () => 1 });

  it("accepts distinct names", () => {
    expect(() => assertUniqueToolNames([tool("a"), tool("b")], "agent")).not.toThrow();
    expect(() => assertUniqueToolNames([], "agent")).not.toThrow();
  });

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

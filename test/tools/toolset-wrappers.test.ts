/** renameTool, prefixToolset, filterToolset and resolveTools on their own. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isToolsmithError } from "../../src/errors/toolsmith-error.js";
import { FunctionTool } from "../../src/tools/function-tool.js";
import { assertUniqueToolNames, resolveTools } from "../../src/tools/resolve-tools.js";
import type { Tool, Toolset } from "../../src/tools/tool.js";
import { filterToolset, prefixToolset, renameTool } from "../../src/tools/toolset-wrappers.js";
import { createReadonlyContext, createToolContext } from "../support/tool-context.js";

/** A toolset of tools that answer with their own name, counting how often it was asked and closed. */
function namedToolset(names: string[]) {
  const counts = { asked: 0, closed: 0 };
  const toolset: Toolset = {
    async getTools() {
      counts.asked++;
      return names.map((name) => new FunctionTool({ name, description: `The ${name} tool.`, parameters: z.object({ n: z.number() }), execute: ({ n }) => ({ ran: name, n }) }));
    },
    async close() {
      counts.closed++;
    },
  };
  return { toolset, counts };
}

describe("renameTool", () => {
  it("shows the model the new name with the same description and parameters, and runs the tool as it is", async () => {
    const original = new FunctionTool({ name: "search", description: "Searches.", parameters: z.object({ q: z.string() }), timeoutMs: 500, execute: ({ q }, context) => ({ q, callId: context.functionCallId }) });
    const renamed = renameTool(original, "web_search");
    expect(renamed.declaration()).toEqual({ ...original.declaration(), name: "web_search" });
    expect(original.declaration()!.name).toBe("search");
    expect([renamed.description, renamed.timeoutMs, renamed.isLongRunning]).toEqual(["Searches.", 500, false]);
    expect(await renamed.run({ q: "toolsmith" }, await createToolContext())).toEqual({ q: "toolsmith", callId: "call-1" });
  });

  it("keeps the tool's own argument checks and confirmation rule", async () => {
    const guarded = new FunctionTool({ name: "delete", description: "Deletes.", parameters: z.object({ path: z.string() }), requireConfirmation: ({ path }) => path.startsWith("/"), execute: () => ({}) });
    const renamed = renameTool(guarded, "fs_delete");
    expect(renamed.checkArguments!({ path: 3 }).ok).toBe(false);
    expect(renamed.checkArguments!({ path: "a.txt" })).toEqual({ ok: true, value: { path: "a.txt" } });
    const context = await createToolContext();
    expect([await renamed.requiresConfirmation!({ path: "/etc" }, context), await renamed.requiresConfirmation!({ path: "a.txt" }, context)]).toEqual([true, false]);
  });

  it("leaves a hidden tool hidden", () => {
    const hidden: Tool = { name: "internal", description: "Hidden.", declaration: () => undefined, run: async () => ({}) };
    expect(renameTool(hidden, "other").declaration()).toBeUndefined();
  });
});

describe("prefixToolset and filterToolset", () => {
  it("prefix every tool's name and filter by the toolset's own names, in either order of wrapping", async () => {
    const { toolset } = namedToolset(["read", "write", "delete"]);
    const context = await createReadonlyContext();
    const filteredThenPrefixed = await prefixToolset(filterToolset(toolset, ["read", "write"]), "fs").getTools(context);
    expect(filteredThenPrefixed.map((tool) => tool.name)).toEqual(["fs_read", "fs_write"]);
    const prefixedThenFiltered = await filterToolset(prefixToolset(toolset, "fs"), ["fs_read"]).getTools(context);
    expect(prefixedThenFiltered.map((tool) => tool.name)).toEqual(["fs_read"]);
    expect(await filteredThenPrefixed[0]!.run({ n: 1 }, await createToolContext())).toEqual({ ran: "read", n: 1 });
  });

  it("filter with a predicate that sees the tool and the read-only context", async () => {
    const { toolset } = namedToolset(["read", "write"]);
    const readOnly = filterToolset(toolset, (tool, context) => tool.name === "read" || context.state.get("role") === "editor");
    const viewer = await createReadonlyContext();
    expect((await readOnly.getTools(viewer)).map((tool) => tool.name)).toEqual(["read"]);
  });

  it("ask the wrapped toolset afresh on every listing, and close it when they are closed", async () => {
    const { toolset, counts } = namedToolset(["read"]);
    const wrapped = prefixToolset(filterToolset(toolset, ["read"]), "fs");
    const context = await createReadonlyContext();
    await wrapped.getTools(context);
    await wrapped.getTools(context);
    await wrapped.close();
    expect(counts).toEqual({ asked: 2, closed: 1 });
  });
});

describe("resolveTools", () => {
  it("keeps the agent's order: plain tools where they stand, a toolset's tools in its place", async () => {
    const first = new FunctionTool({ name: "first", description: "1.", execute: () => ({}) });
    const last = new FunctionTool({ name: "last", description: "2.", execute: () => ({}) });
    const tools = await resolveTools([first, namedToolset(["middle_a", "middle_b"]).toolset, last], await createReadonlyContext(), "agent");
    expect(tools.map((tool) => tool.name)).toEqual(["first", "middle_a", "middle_b", "last"]);
  });

  it("refuses two tools of one name that a toolset brought in, naming each duplicate and the fix", async () => {
    const failure = await resolveTools([namedToolset(["read", "write"]).toolset, namedToolset(["read", "write", "list"]).toolset], await createReadonlyContext(), "files").catch((error: unknown) => error);
    expect(isToolsmithError(failure) && failure.code).toBe("DUPLICATE_TOOL_NAME");
    expect((failure as Error).message).toBe('Agent "files" has more than one tool named "read", "write". Rename one, or give a toolset a prefix with prefixToolset(toolset, prefix).');
  });

  it("accepts the same names once a prefix tells the toolsets apart", async () => {
    const tools = await resolveTools([prefixToolset(namedToolset(["read"]).toolset, "local"), prefixToolset(namedToolset(["read"]).toolset, "remote")], await createReadonlyContext(), "files");
    expect(tools.map((tool) => tool.name)).toEqual(["local_read", "remote_read"]);
  });

  it("checks plain tools alone without a listing: assertUniqueToolNames passes distinct names", () => {
    const tool = (name: string) => new FunctionTool({ name, description: name, execute: () => ({}) });
    expect(() => assertUniqueToolNames([tool("a"), tool("b")], "agent")).not.toThrow();
    expect(() => assertUniqueToolNames([tool("a"), tool("a")], "agent")).toThrow('Agent "agent" has more than one tool named "a".');
  });
});

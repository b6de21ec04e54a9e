/**
 * `FunctionTool.runAsync({ args, toolContext })` called by hand, as ADK programs call it (a custom agent, a tool
 * wrapping another, a test): it checks the arguments and holds a call that needs confirmation before the function
 * runs, as ADK's does, where it used to call the function with whatever it was given. The results are ADK's,
 * measured by running @google/adk 2.0 on the same calls (scratch probe, recorded in the expectations below).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionTool, InvalidArgumentsError, isToolsmithError, ToolContext } from "../../src/index.js";
import { createInvocation, createToolContext } from "../support/tool-context.js";

const weather = () =>
  new FunctionTool({
    name: "weather",
    description: "Weather in a city.",
    parameters: z.object({ city: z.string(), units: z.enum(["c", "f"]).default("c") }),
    execute: (input) => ({ got: input }),
  });

describe("FunctionTool.runAsync by hand", () => {
  it("fills the parameters' defaults before the function runs, as ADK's zod parse does", async () => {
    expect(await weather().runAsync({ args: { city: "Paris" }, toolContext: await createToolContext() })).toEqual({ got: { city: "Paris", units: "c" } });
  });

  it("refuses arguments the parameters refuse, naming each problem, without running the function", async () => {
    let ran = false;
    const tool = new FunctionTool({ name: "weather", description: "W.", parameters: z.object({ city: z.string() }), execute: () => ((ran = true), {}) });
    const error = await tool.runAsync({ args: { city: 42 }, toolContext: await createToolContext() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidArgumentsError);
    expect(isToolsmithError(error) && error.code).toBe("INVALID_ARGUMENTS");
    expect((error as Error).message).toMatch(/^Invalid arguments for tool "weather": city: .+\. Call the tool again with arguments that match its schema\.$/);
    expect(ran).toBe(false);
  });

  it("asks for a confirmation instead of running a call requireConfirmation holds, as ADK's answers", async () => {
    let ran = 0;
    const tool = new FunctionTool({ name: "delete_all", description: "Deletes everything.", requireConfirmation: true, execute: () => (ran++, "deleted") });
    const context = await createToolContext();
    expect(await tool.runAsync({ args: {}, toolContext: context })).toEqual({ error: "This tool call requires confirmation, please approve or reject." });
    expect(ran).toBe(0);
    expect(Object.values(context.actions.requestedToolConfirmations)).toEqual([{ hint: 'Please approve or reject the call to "delete_all" with {}.', confirmed: false }]);

    const invocation = await createInvocation();
    const declined = new ToolContext({ invocation, functionCallId: "call-1", toolConfirmation: { confirmed: false } });
    expect(await tool.runAsync({ args: {}, toolContext: declined })).toEqual({ error: "This tool call is rejected." });
    const approved = new ToolContext({ invocation, functionCallId: "call-1", toolConfirmation: { confirmed: true } });
    expect(await tool.runAsync({ args: {}, toolContext: approved })).toBe("deleted");
    expect(ran).toBe(1);
  });

  it("says to pass a tool context when a call needs confirmation and none was given", async () => {
    const tool = new FunctionTool({ name: "delete_all", description: "D.", requireConfirmation: true, execute: () => "deleted" });
    const error = await tool.runAsync({ args: {}, toolContext: undefined as unknown as ToolContext }).catch((caught: unknown) => caught);
    expect(isToolsmithError(error) && [error.code, error.message]).toEqual(["NO_TOOL_CONTEXT", 'Tool "delete_all" needs a confirmation to run, which it asks through its tool context: pass runAsync({ args, toolContext }).']);
  });

  it("checks the arguments, defaults filled, before asking checkRequireConfirmation's rule, with or without a context", async () => {
    const seen: unknown[] = [];
    const tool = new FunctionTool({
      name: "transfer",
      description: "Moves money.",
      parameters: z.object({ amount: z.number(), currency: z.string().default("EUR") }),
      requireConfirmation: (args) => (seen.push(args), (args.amount as number) > 100),
      execute: () => "moved",
    });
    expect(await tool.checkRequireConfirmation({ amount: 500 })).toBe(true);
    expect(await tool.checkRequireConfirmation({ amount: 5 }, await createToolContext())).toBe(false);
    expect(seen).toEqual([{ amount: 500, currency: "EUR" }, { amount: 5, currency: "EUR" }]);
  });
});

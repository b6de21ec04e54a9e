import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import { Context, ToolConfirmation } from "../../src/index.js";
import { createInvocation } from "../support/tool-context.js";

describe("ToolConfirmation", () => {
  it("is made as ADK 2.0 makes it: the hint empty unless given, the payload kept", () => {
    for (const fields of [{ confirmed: true }, { confirmed: false, hint: "Approve?", payload: { days: 3 } }]) {
      expect({ ...new ToolConfirmation(fields) }).toEqual({ ...new adk.ToolConfirmation(fields) });
    }
  });

  it("reaches a tool through its Context, like a plain object of the same shape", async () => {
    const invocation = await createInvocation();
    const fromClass = new Context({ invocationContext: invocation, functionCallId: "c1", toolConfirmation: new ToolConfirmation({ confirmed: true }) });
    const fromObject = new Context({ invocationContext: invocation, functionCallId: "c1", toolConfirmation: { confirmed: true } });
    expect(fromClass.toolConfirmation).toBeInstanceOf(ToolConfirmation);
    expect(fromClass.toolConfirmation!.confirmed && fromObject.toolConfirmation!.confirmed).toBe(true);
  });
});

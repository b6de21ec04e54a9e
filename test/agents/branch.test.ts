import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentToolBranch, branchSafeId, toolCallBelow, toolCallIdsIn } from "../../src/agents/branch.js";

/** Reading which agent or node run as a tool an event's branch belongs to, as pausing and resuming rely on. */
describe("tool-call branches", () => {
  it("lists the calls a branch lies inside, outermost first, by their branch-safe ids", () => {
    const outer = agentToolBranch(undefined, "clerk", "helper", "call:1");
    const inner = agentToolBranch(`${outer}.fan#2`, "helper", "checker", "call/2");
    expect(inner).toBe("clerk.helper@call_1.fan#2.helper.checker@call_2");
    expect(toolCallIdsIn(inner)).toEqual(["call_1", "call_2"]);
    expect(toolCallIdsIn("wf.fan#1")).toEqual([]);
    expect(toolCallIdsIn(undefined)).toEqual([]);
  });

  it("names the outermost call below the asker's branch, and none for the asker's own branch or a sub-branch of it", () => {
    expect(toolCallBelow("ask@c1", undefined)).toBe("c1");
    expect(toolCallBelow("ask@c1.node#1", "ask@c1")).toBeUndefined();
    expect(toolCallBelow("ask@c1", "ask@c1")).toBeUndefined();
    expect(toolCallBelow("ask@c1.agent.inner@c2.deeper@c3", "ask@c1")).toBe("c2");
    expect(toolCallBelow("elsewhere@c9", "ask@c1")).toBeUndefined();
    expect(toolCallBelow(undefined, "ask@c1")).toBeUndefined();
  });

  it("finds, for random nestings of calls and node branches, exactly the calls opened below the base", () => {
    const segment = fc.oneof(
      fc.record({ call: fc.string({ minLength: 1, maxLength: 6 }), name: fc.stringMatching(/^[a-z]{1,5}$/) }),
      fc.stringMatching(/^[a-z]{1,5}(#[0-9])?$/).map((name) => ({ call: undefined, name })),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.array(segment, { minLength: 1, maxLength: 5 }), (baseSegments, below) => {
        const write = (segments: typeof below) => segments.map((part) => (part.call === undefined ? part.name : `${part.name}@${branchSafeId(part.call)}`)).join(".");
        const base = baseSegments.length ? write(baseSegments) : undefined;
        const branch = base ? `${base}.${write(below)}` : write(below);
        const firstCall = below.find((part) => part.call !== undefined);
        expect(toolCallBelow(branch, base)).toBe(firstCall ? branchSafeId(firstCall.call!) : undefined);
        expect(toolCallIdsIn(branch)).toEqual([...baseSegments, ...below].filter((part) => part.call !== undefined).map((part) => branchSafeId(part.call!)));
      }),
      { numRuns: 1000 },
    );
  });
});

import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

/**
 * `BranchPath`, side by side with `@google/adk` 2.0: the same segments, strings and ancestry; `append` with a run
 * id writes toolsmith's `name#runId` where ADK writes `name@runId`, as `createSubBranch` does (docs/adk-compat.md,
 * Graph workflows).
 */
describe("BranchPath, side by side with @google/adk 2.0", () => {
  it("keeps a copy of its segments and joins them with dots, as ADK's", () => {
    for (const segments of [[], ["root"], ["root", "review", "check"], ["a.b", "c"]]) {
      const given = [...segments];
      const ours = new toolsmith.BranchPath(given);
      const theirs = new adk.BranchPath(given);
      given.push("later");
      expect([ours.toString(), ours.getSegments()]).toEqual([theirs.toString(), theirs.getSegments()]);
      ours.getSegments().push("not kept");
      expect(ours.getSegments()).toEqual(segments);
      expect(`${ours}`).toBe(`${theirs}`);
    }
  });

  it("isDescendantOf is true only for a strictly longer path that begins with the ancestor's segments, as ADK's", () => {
    const paths = [[], ["root"], ["root", "a"], ["root", "a", "b"], ["root", "b"], ["other", "a"]];
    const ours = paths.map((path) => paths.map((ancestor) => new toolsmith.BranchPath(path).isDescendantOf(new toolsmith.BranchPath(ancestor))));
    const theirs = paths.map((path) => paths.map((ancestor) => new adk.BranchPath(path).isDescendantOf(new adk.BranchPath(ancestor))));
    expect(ours).toEqual(theirs);
    expect(ours.flat().filter(Boolean).length).toBe(9);
  });

  it("append adds a segment and leaves the path as it was, as ADK's; with a run id it writes name#runId where ADK writes name@runId", () => {
    const ourBase = new toolsmith.BranchPath(["root"]);
    const theirBase = new adk.BranchPath(["root"]);
    expect(ourBase.append("child").toString()).toBe(theirBase.append("child").toString());
    expect(ourBase.toString()).toBe("root");
    expect(theirBase.append("child", "2").toString()).toBe("root.child@2");
    expect(ourBase.append("child", "2").toString()).toBe("root.child#2");
    // The same mark as toolsmith's createSubBranch, whose branches node runs carry.
    expect(ourBase.append("child", "2").toString()).toBe(toolsmith.createSubBranch("root", { name: "child", runId: "2" }));
    expect(theirBase.append("child", "2").toString()).toBe(adk.createSubBranch("root", { name: "child", runId: "2" }));
    expect(ourBase.append("child", "2").isDescendantOf(ourBase)).toBe(true);
  });
});

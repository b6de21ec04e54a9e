import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { tempDir } from "../support/temp-dir.js";

describe("the persistent-notes example", () => {
  it("keeps sessions, memory and artifacts across two runs of the program", () => {
    const dir = join(tempDir(), "store");
    const run = () =>
      execFileSync(process.execPath, [...SOURCE_NODE_FLAGS, "examples/persistent-notes/main.ts", dir], { cwd: new URL("../../", import.meta.url).pathname }).toString();
    expect(run()).toBe("agent: Noted: buy espresso beans.\nmemories about espresso: 2; notes saved so far: 1\nstale copy refused: STALE_SESSION\n");
    expect(run()).toContain("memories about espresso: 4; notes saved so far: 2\n");
  });
});

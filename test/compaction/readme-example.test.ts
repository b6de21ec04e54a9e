import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";

const repositoryRoot = new URL("../../", import.meta.url).pathname;
const run = promisify(execFile);

describe("the README's compaction example", () => {
  // Inside the repository, so `import "toolsmith"` resolves as in a user's project.
  const dir = join(repositoryRoot, "test/compaction/.program");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the README's first program after `heading`, as a user's file would run, and returns what it printed. */
  async function runProgramAfter(heading: string, file: string): Promise<string> {
    const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
    const section = readme.split(heading)[1]!;
    const program = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file), program);
    const { stdout } = await run(process.execPath, [...SOURCE_NODE_FLAGS, join(dir, file)], { timeout: 60_000 });
    return stdout;
  }

  it("runs as written: every request within the budget, compactions made, every event stored", async () => {
    const stdout = await runProgramAfter("### Keeping long runs within the context: compaction", "compaction.ts");
    console.log(stdout.trim());
    const [, compactions, stored, largest] = /^(\d+) compactions; (\d+) events stored; largest request: (\d+) tokens \(estimated\) of 1000$/m.exec(stdout)!;
    expect(Number(compactions)).toBeGreaterThan(5);
    // 60 turns of four events (message, call, result, answer), and one event per compaction.
    expect(Number(stored)).toBe(60 * 4 + Number(compactions));
    expect(Number(largest)).toBeLessThanOrEqual(1_000);
  });

  it("of ADK 2's other compactors runs as written: the model's consolidate_context call leaves it the summary, the call and its answer", async () => {
    const stdout = await runProgramAfter("**ADK 2's other compactors**", "adk-2-compactors.ts");
    expect(stdout.trim()).toBe(["[", "  '[Previous Context Summary]:\\nStep one done; the data is in data.csv.',", "  'functionCall',", "  'functionResponse'", "]"].join("\n"));
  });
});

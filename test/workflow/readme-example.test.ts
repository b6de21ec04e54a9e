import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";

const repositoryRoot = new URL("../../", import.meta.url).pathname;
const run = promisify(execFile);

describe("the README's graph workflow", () => {
  // Inside the repository, so `import "toolsmith"` resolves as in a user's project.
  const dir = join(repositoryRoot, "test/workflow/.program");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
  const section = readme.split("### Graph workflows (ADK 2)")[1]!;
  const program = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const printed = /It prints each node's output as its event arrives:\n\n```\n([\s\S]*?)```/.exec(section)![1]!;

  it("is examples/workflow/main.ts, so the runnable example and the README say the same", () => {
    const example = readFileSync(join(repositoryRoot, "examples/workflow/main.ts"), "utf8");
    expect(example.slice(example.indexOf("import {"))).toBe(program);
  });

  it("runs as written and prints what the README shows: the refund branch joined and answered by the agent, the other routed by default", async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "workflow.ts"), program);
    const { stdout } = await run(process.execPath, [...SOURCE_NODE_FLAGS, join(dir, "workflow.ts")], { timeout: 60_000 });
    console.log(stdout.trim());
    expect(stdout).toBe(printed);
  });

  /** Runs the README's program after `marker` and gives what it printed, with what the README says it prints. */
  async function runProgramAfter(marker: string, file: string): Promise<{ stdout: string; expected: string }> {
    const section = readme.split(marker)[1]!;
    const source = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const expected = /It prints:\n\n```\n([\s\S]*?)```/.exec(section)![1]!;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file), source);
    const { stdout } = await run(process.execPath, [...SOURCE_NODE_FLAGS, join(dir, file)], { timeout: 60_000 });
    return { stdout, expected };
  }

  it("of a workflow that asks the person runs as written: it pauses at the question, and the answer resumes it", async () => {
    const { stdout, expected } = await runProgramAfter("**A workflow that asks the person.**", "ask.ts");
    expect(stdout).toBe(expected);
  });

  it("of a node run as a tool that asks runs as written: the question pauses the call, and the answer takes it up", async () => {
    const { stdout, expected } = await runProgramAfter("**A node run as a tool that asks the person.**", "node-tool.ts");
    expect(stdout).toBe(expected);
  });

  it("of a task agent runs as written: it asks, waits, and on the answer finishes with finish_task, whose arguments the next node gets", async () => {
    const { stdout, expected } = await runProgramAfter("**A task agent.**", "task.ts");
    expect(stdout).toBe(expected);
  });
});

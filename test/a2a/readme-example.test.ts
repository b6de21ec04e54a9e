import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";

const repositoryRoot = new URL("../../", import.meta.url).pathname;

describe("the README's A2A program", () => {
  const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
  const section = readme.split("## A2A: agents on other servers")[1]!;
  const program = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const printed = /It prints:\n\n```\n([\s\S]*?)```/.exec(section)![1]!;

  it("is examples/a2a/main.ts, so the runnable example and the README say the same", () => {
    const example = readFileSync(join(repositoryRoot, "examples/a2a/main.ts"), "utf8");
    expect(example.slice(example.indexOf("import type { AddressInfo }"))).toBe(program);
  });

  it("runs as written: the root transfers to the agent served over A2A with a bearer token, which answers", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [...SOURCE_NODE_FLAGS, join(repositoryRoot, "examples/a2a/main.ts")], { timeout: 60_000, cwd: repositoryRoot });
    expect(stdout).toBe(printed);
  });
});

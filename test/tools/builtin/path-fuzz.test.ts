import { mkdirSync, mkdtempSync, readdirSync, readFileSync, lstatSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFilesystemTools, FilesystemBackend } from "../../../src/tools/builtin/index.js";
import { pick, toolHarness } from "./tool-harness.js";

const CANARY = "CANARY-7f3a9c";

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = [
  "..", ".", "...", "~", "~root", "a", "b", "sub", "new.txt", "file.txt", "secret.txt", "outside",
  "link-out", "link-file", "link-chain", "link-rel", "link-dangling", "link-loop", "link-in", "link-root-parent",
  "%2e%2e", "%2f", "%252e", "..%2f", "C:", "c:", "\\", "..\\..", "\u0000", "a\u0000b", "\n", " ", "..\u2024", "\uff0e\uff0e",
  "", "//", "con", "x".repeat(300), "é", "*", "?", "[a]",
];

function generatePath(next: () => number): string {
  const count = 1 + Math.floor(next() * 5);
  const segments = Array.from({ length: count }, () => SEGMENTS[Math.floor(next() * SEGMENTS.length)]!);
  const lead = next() < 0.8 ? "/" : next() < 0.5 ? "" : "//";
  return lead + segments.join(next() < 0.95 ? "/" : "\\");
}

/** Every file and link under a directory, with contents, to show nothing outside changed. */
function snapshot(directory: string, skip: string): Record<string, string> {
  const seen: Record<string, string> = {};
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (path === skip) continue;
      const stats = lstatSync(path);
      if (stats.isSymbolicLink()) seen[path] = `link:${readlinkSync(path)}`;
      else if (stats.isDirectory()) walk(path);
      else seen[path] = readFileSync(path, "utf8");
    }
  };
  walk(directory);
  return seen;
}

const scratch = mkdtempSync(join(tmpdir(), "toolsmith-fuzz-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("filesystem root containment (fuzz)", () => {
  it("lets no generated path read the canary outside the root or write outside it, through any tool", async () => {
    const root = join(scratch, "root");
    const outside = join(scratch, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), CANARY);
    writeFileSync(join(scratch, "secret.txt"), CANARY);
    /** The root as it starts; laid anew now and then so the files the fuzz writes do not slow every later search. */
    const layRoot = () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(join(root, "sub"), { recursive: true });
    writeFileSync(join(root, "file.txt"), "inside\nfile.txt\n");
    // The symlink farm: out of the root by absolute and relative links, chains, loops, dangling links.
    symlinkSync(outside, join(root, "link-out"));
    symlinkSync(join(outside, "secret.txt"), join(root, "link-file"));
    symlinkSync(join(root, "link-out"), join(root, "link-chain"));
    symlinkSync("../outside", join(root, "link-rel"));
    symlinkSync(join(outside, "does-not-exist.txt"), join(root, "link-dangling"));
    symlinkSync("link-loop", join(root, "link-loop"));
    symlinkSync("sub", join(root, "link-in"));
    symlinkSync("..", join(root, "link-root-parent"));
    symlinkSync("../../outside/secret.txt", join(root, "sub", "link-deep"));
    };
    layRoot();
    const before = snapshot(scratch, root);

    const harness = await toolHarness();
    // The JavaScript search here; ripgrep gets a sample below, since each call starts a process.
    const tools = createFilesystemTools({ backend: new FilesystemBackend({ rootDirectory: root }), ripgrep: false });
    const withRipgrep = createFilesystemTools({ backend: new FilesystemBackend({ rootDirectory: root }) });
    const next = random(20261123);
    let calls = 0;
    let successes = 0;
    const leaks: string[] = [];
    const check = (result: Record<string, unknown>) => {
      calls++;
      if (result.status === "success") successes++;
      else if (result.status !== "error") leaks.push(`no status: ${JSON.stringify(result)}`);
      const text = JSON.stringify(result);
      if (text.includes(CANARY)) leaks.push(text);
    };
    const PATHS = 10_000;
    const BATCH = 25;
    for (let index = 0; index < PATHS; index += BATCH) {
      if (index % 100 === 0 && index > 0) layRoot();
      // A batch runs concurrently, so writes race reads and searches as they would with parallel tool calls.
      await Promise.all(
        Array.from({ length: BATCH }, async (_, offset) => {
          const path = generatePath(next);
          check(await harness.call(pick(tools, "ls"), { path }));
          check(await harness.call(pick(tools, "read_file"), { file_path: path }));
          check(await harness.call(pick(tools, "write_file"), { file_path: path, content: `written ${index + offset}` }));
          check(await harness.call(pick(tools, "edit_file"), { file_path: path, old_string: "inside", new_string: "edited" }));
          check(await harness.call(pick(tools, "glob"), { pattern: "**", path }));
          check(await harness.call(pick(tools, "grep"), { pattern: "CANARY", path, output_mode: "content" }));
          if ((index + offset) % 200 === 0) {
            check(await harness.call(pick(withRipgrep, "glob"), { pattern: "**/*", path }));
            check(await harness.call(pick(withRipgrep, "grep"), { pattern: "CANARY", path, output_mode: "content" }));
          }
        }),
      );
    }
    expect(leaks).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(PATHS * 6);
    // Plenty of calls really reached the filesystem, so the run tested containment, not only the path parser.
    expect(successes).toBeGreaterThan(PATHS / 2);
    expect(snapshot(scratch, root)).toEqual(before);
  });
});

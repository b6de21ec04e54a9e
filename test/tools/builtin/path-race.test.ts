/**
 * The filesystem backend against a concurrent attacker (issue 15): another process swaps a directory inside
 * the root for a symlink to a directory outside it, as fast as it can, while the tools read, write, edit and
 * list through it. Every opened file is checked by what was opened, so nothing outside is read or written:
 * the figures are printed. Also: FIFOs are refused at once, and reads are bounded in bytes.
 */
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFilesystemTools, FilesystemBackend } from "../../../src/tools/builtin/index.js";
import { MAX_LINE_BYTES, MAX_WINDOW_BYTES } from "../../../src/tools/builtin/filesystem/read-line-window.js";
import { SOURCE_NODE_FLAGS } from "../../support/source-node-flags.js";
import { pick, toolHarness } from "./tool-harness.js";

const CANARY = "CANARY-outside-the-root";
const scratch = mkdtempSync(join(tmpdir(), "toolsmith-race-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("FilesystemBackend under a concurrent symlink swap", () => {
  it("reads and writes nothing outside the root in 10,000 operations racing a swapping process", async () => {
    const root = mkdtempSync(join(scratch, "root-"));
    const outside = mkdtempSync(join(scratch, "outside-"));
    writeFileSync(join(outside, "secret.txt"), CANARY);
    mkdirSync(join(root, "dir"));
    writeFileSync(join(root, "dir", "secret.txt"), "inside");
    const harness = await toolHarness();
    const tools = createFilesystemTools({ backend: new FilesystemBackend({ rootDirectory: root }) });
    const run = (name: string, args: Record<string, unknown>) => harness.call(pick(tools, name), args);
    const swapper = spawn(process.execPath, [...SOURCE_NODE_FLAGS, new URL("./workers/swap-directory.ts", import.meta.url).pathname, root, outside], { stdio: "ignore" });
    const figures = { operations: 0, succeeded: 0, refused: 0, canaryRead: 0 };
    try {
      await new Promise((resolve) => setTimeout(resolve, 300)); // the swapper is running
      // 10,000 operations, 50 at a time, so many checks and opens interleave with the swaps.
      const operation = async (index: number) => {
        const kind = index % 5;
        const result =
          kind === 0 ? await run("read_file", { file_path: "/dir/secret.txt" })
          : kind === 1 ? await run("write_file", { file_path: `/dir/new-${index}.txt`, content: "written" })
          : kind === 2 ? await run("edit_file", { file_path: "/dir/secret.txt", old_string: index % 2 ? "inside" : "INSIDE", new_string: index % 2 ? "INSIDE" : "inside" })
          : kind === 3 ? await run("ls", { path: "/dir" })
          : await run("grep", { pattern: "CANARY", path: "/dir" });
        figures.operations++;
        if (result.status === "success") figures.succeeded++;
        else figures.refused++;
        if (JSON.stringify(result).includes(CANARY)) figures.canaryRead++;
      };
      for (let batch = 0; batch < 200; batch++) await Promise.all(Array.from({ length: 50 }, (_, index) => operation(batch * 50 + index)));
    } finally {
      swapper.kill("SIGKILL");
    }
    const outsideFiles = readdirSync(outside);
    console.log(`path race: ${figures.operations} operations against a swapping process, ${figures.succeeded} succeeded, ${figures.refused} refused, ${figures.canaryRead} read the outside file, ${outsideFiles.length - 1} files written outside`);
    expect(figures.canaryRead).toBe(0);
    expect(outsideFiles).toEqual(["secret.txt"]);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe(CANARY);
    expect(figures.succeeded).toBeGreaterThan(0);
    // About a minute alone; the whole suite on two busy cores took it past two. It proves a guarantee, not a speed.
  }, 600_000);
});

describe("FilesystemBackend's other guards", () => {
  it("refuses a FIFO at once for reading and writing instead of hanging", async () => {
    const root = mkdtempSync(join(scratch, "fifo-"));
    execFileSync("mkfifo", [join(root, "pipe")]);
    const harness = await toolHarness();
    const tools = createFilesystemTools({ backend: new FilesystemBackend({ rootDirectory: root }) });
    const started = Date.now();
    expect(await harness.call(pick(tools, "read_file"), { file_path: "/pipe" })).toMatchObject({ status: "error", code: "NOT_A_FILE", message: expect.stringContaining("not a regular file") });
    expect(await harness.call(pick(tools, "edit_file"), { file_path: "/pipe", old_string: "a", new_string: "b" })).toMatchObject({ status: "error", code: "NOT_A_FILE" });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(statSync(join(root, "pipe")).isFIFO()).toBe(true);
  });

  it("reads a file of one huge line in bounded memory, saying how much of the line it left out", async () => {
    const root = mkdtempSync(join(scratch, "huge-"));
    writeFileSync(join(root, "one-line.txt"), "x".repeat(20_000_000));
    writeFileSync(join(root, "many-long.txt"), `${"y".repeat(60_000)}\n`.repeat(40));
    const harness = await toolHarness();
    const readFile = pick(createFilesystemTools({ backend: new FilesystemBackend({ rootDirectory: root }) }), "read_file");
    const before = process.memoryUsage().rss;
    const result = await harness.call(readFile, { file_path: "/one-line.txt", limit: 1 });
    const grown = process.memoryUsage().rss - before;
    console.log(`bounded read: a 20,000,000-byte line gave ${String(result.content).length} characters; the process grew by ${Math.round(grown / 1e6)} MB`);
    expect(String(result.content).length).toBeLessThan(MAX_LINE_BYTES + 1_000); // the line, its row numbers and the note
    expect(String(result.content)).toContain(`... (${20_000_000 - MAX_LINE_BYTES} more bytes of this line not shown)`);
    const many = await harness.call(readFile, { file_path: "/many-long.txt" });
    expect(String(many.content).length).toBeLessThan(MAX_WINDOW_BYTES + 100_000);
    expect(String(many.content)).toMatch(/\.\.\. \(\d+ more lines\. Use offset=\d+ to continue reading\)$/);
  });
});

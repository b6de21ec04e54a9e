/**
 * `LocalEnvironment`'s file confinement against an attacker: fast-check builds hostile paths (`..`, absolute paths,
 * links out, dangling links, loops, NUL bytes, links to folders inside) for `readFile` and `writeFile`, and another
 * process swaps a folder for a link out as fast as it can while files are read, written and overwritten through
 * it. Nothing outside the working directory is read or written: the figures are printed.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { LocalEnvironment } from "../../src/index.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";

const CANARY = "CANARY-outside-the-working-directory";
const scratch = realpathSync(mkdtempSync(join(tmpdir(), "toolsmith-env-attack-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `folder` with its content, to compare before and after. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), "utf8");
  }
  return files;
}

describe("LocalEnvironment's files under attack", () => {
  it("reads and writes nothing outside the working directory for any path fast-check builds", async () => {
    const outside = mkdtempSync(join(scratch, "outside-"));
    mkdirSync(join(outside, "nested"));
    writeFileSync(join(outside, "secret.txt"), CANARY);
    writeFileSync(join(outside, "nested", "deeper.txt"), CANARY);
    const before = snapshot(outside);
    const workingDir = mkdtempSync(join(scratch, "work-"));
    const environment = new LocalEnvironment({ workingDir });
    await environment.initialize();
    mkdirSync(join(workingDir, "inside"));
    writeFileSync(join(workingDir, "inside", "mine.txt"), "mine");
    symlinkSync(outside, join(workingDir, "out-dir"));
    symlinkSync(join(outside, "secret.txt"), join(workingDir, "out-file"));
    symlinkSync(join(outside, "absent.txt"), join(workingDir, "dangling-out"));
    symlinkSync("../" + outside.split("/").pop(), join(workingDir, "relative-out"));
    symlinkSync("inside", join(workingDir, "in-dir"));
    symlinkSync("loop-b", join(workingDir, "loop-a"));
    symlinkSync("loop-a", join(workingDir, "loop-b"));
    const segment = fc.constantFrom("..", ".", "", "inside", "in-dir", "out-dir", "out-file", "dangling-out", "relative-out", "loop-a", "nested", "secret.txt", "mine.txt", "new.txt", "x\0y", outside, "/etc", "%2e%2e");
    const path = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join("/"));
    const figures = { paths: 0, reads: 0, readsRefused: 0, writes: 0, writesRefused: 0, canaryRead: 0 };
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(path, fc.boolean(), async (filePath, absolute) => {
        const given = absolute ? join(workingDir, filePath) : filePath;
        figures.paths++;
        try {
          const bytes = await environment.readFile(given);
          figures.reads++;
          if (Buffer.from(bytes).toString("utf8").includes(CANARY)) figures.canaryRead++;
        } catch (error) {
          figures.readsRefused++;
          const code = String((error as NodeJS.ErrnoException).code);
          codes.set(code, (codes.get(code) ?? 0) + 1);
        }
        try {
          await environment.writeFile(given, "written");
          figures.writes++;
        } catch (error) {
          figures.writesRefused++;
          const code = String((error as NodeJS.ErrnoException).code);
          codes.set(code, (codes.get(code) ?? 0) + 1);
        }
      }),
      { numRuns: 3000 },
    );
    await environment.close();
    console.log(`path fuzz: ${figures.paths} paths; ${figures.reads} reads done, ${figures.readsRefused} refused; ${figures.writes} writes done, ${figures.writesRefused} refused; ${figures.canaryRead} read the outside; errors by code: ${JSON.stringify(Object.fromEntries(codes))}`);
    expect(figures.canaryRead).toBe(0);
    expect(snapshot(outside)).toEqual(before);
    expect(readdirSync(outside).sort()).toEqual(["nested", "secret.txt"]);
    expect(figures.writes).toBeGreaterThan(0);
    expect(figures.reads).toBeGreaterThan(0);
  }, 120_000);

  it("reads and writes nothing outside while another process swaps a folder for a link out", async () => {
    const outside = mkdtempSync(join(scratch, "outside-"));
    writeFileSync(join(outside, "secret.txt"), CANARY);
    const workingDir = mkdtempSync(join(scratch, "work-"));
    mkdirSync(join(workingDir, "dir"));
    writeFileSync(join(workingDir, "dir", "secret.txt"), "inside");
    const environment = new LocalEnvironment({ workingDir });
    await environment.initialize();
    const swapper = spawn(process.execPath, [...SOURCE_NODE_FLAGS, new URL("../tools/builtin/workers/swap-directory.ts", import.meta.url).pathname, workingDir, outside], { stdio: "ignore" });
    const figures = { operations: 0, succeeded: 0, refused: 0, canaryRead: 0 };
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const operation = async (index: number) => {
        const kind = index % 3;
        try {
          if (kind === 0) {
            if (Buffer.from(await environment.readFile("dir/secret.txt")).toString("utf8").includes(CANARY)) figures.canaryRead++;
          } else if (kind === 1) await environment.writeFile(`dir/new-${index}.txt`, "written");
          else await environment.writeFile("dir/secret.txt", "overwritten");
          figures.succeeded++;
        } catch {
          figures.refused++;
        }
        figures.operations++;
      };
      for (let batch = 0; batch < 100; batch++) await Promise.all(Array.from({ length: 50 }, (_, index) => operation(batch * 50 + index)));
    } finally {
      swapper.kill("SIGKILL");
      await environment.close();
    }
    console.log(`path race: ${figures.operations} reads and writes against a swapping process, ${figures.succeeded} succeeded, ${figures.refused} refused, ${figures.canaryRead} read the outside file, ${readdirSync(outside).length - 1} files written outside`);
    expect(figures.canaryRead).toBe(0);
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe(CANARY);
    expect(figures.succeeded).toBeGreaterThan(0);
  }, 180_000);
});

/**
 * Built-in tools: grep and glob over a generated tree of 50,000 files (the
 * JavaScript search, the ripgrep path, and `rg` run directly), and read_file
 * near the end of a 100 MB file (time and peak memory, in a child process so
 * the figure is the read's alone).
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { State } from "../src/index.js";
import { FilesystemBackend, findRipgrep, globFiles, grepSearch } from "../src/tools/builtin/index.js";
import { ripgrepArguments } from "../src/tools/builtin/filesystem/grep-search.js";

const fmt = (value: number, digits = 1) => value.toFixed(digits);

/** Runs rg and waits for it, asynchronously as the tools do, so the comparison is of the same kind of call. */
function rgDirect(binary: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error) => (error && error.code !== 1 ? reject(error) : resolve()));
  });
}

async function median(runs: number, work: () => Promise<unknown> | unknown): Promise<number> {
  await work();
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

/** 500 directories of 100 files (about 300 bytes each); one file in 100 holds the needle. */
function generateTree(root: string, fileCount: number): void {
  const perDirectory = 100;
  const body = "lorem ipsum dolor sit amet, consectetur adipiscing elit\n".repeat(5);
  for (let index = 0; index < fileCount; index++) {
    const directory = join(root, `pkg${Math.floor(index / perDirectory / 20)}`, `dir${Math.floor(index / perDirectory)}`);
    if (index % perDirectory === 0) mkdirSync(directory, { recursive: true });
    const extension = index % 3 === 0 ? "ts" : index % 3 === 1 ? "md" : "json";
    writeFileSync(join(directory, `file${index}.${extension}`), index % 100 === 0 ? `${body}const NEEDLE_42 = true;\n` : body);
  }
}

export async function builtinToolsBench(options: { quick: boolean }): Promise<string[][]> {
  const rows: string[][] = [["built-in tools", "toolsmith JS", "toolsmith ripgrep", "rg direct", "ratio (JS / rg direct)", "ratio (ripgrep path / rg direct)"]];
  const ripgrep = await findRipgrep();
  const scratch = mkdtempSync(join(tmpdir(), "toolsmith-bench-"));
  try {
    const fileCount = 50_000;
    const root = join(scratch, "tree");
    mkdirSync(root);
    generateTree(root, fileCount);
    const backend = new FilesystemBackend({ rootDirectory: root });
    const context = { state: new State({}, {}) };
    const runs = options.quick ? 1 : 3;

    const grepRequest = { backend, context, pattern: "NEEDLE_42", path: "/", mode: "files_with_matches" as const };
    const grepJs = await median(runs, () => grepSearch(grepRequest));
    const grepRg = ripgrep ? await median(runs, () => grepSearch({ ...grepRequest, ripgrep })) : NaN;
    const grepDirect = ripgrep ? await median(runs, () => rgDirect(ripgrep, ["--no-config", ...ripgrepArguments(grepRequest)], root)) : NaN;
    const found = (await grepSearch(grepRequest)).length;
    rows.push([`grep, ${fileCount} files, ${found} matches (ms)`, fmt(grepJs), fmt(grepRg), fmt(grepDirect), fmt(grepJs / grepDirect), fmt(grepRg / grepDirect)]);

    const globRequest = { backend, context, pattern: "**/*.ts", path: "/" };
    const globJs = await median(runs, () => globFiles(globRequest));
    const globRg = ripgrep ? await median(runs, () => globFiles({ ...globRequest, ripgrep })) : NaN;
    const globDirect = ripgrep ? await median(runs, () => rgDirect(ripgrep, ["--no-config", "--files", "--no-ignore", "--hidden", "--glob", "**/*.ts", "."], root)) : NaN;
    const globbed = (await globFiles(globRequest)).length;
    rows.push([`glob **/*.ts, ${fileCount} files, ${globbed} matches (ms)`, fmt(globJs), fmt(globRg), fmt(globDirect), fmt(globJs / globDirect), fmt(globRg / globDirect)]);
    rmSync(root, { recursive: true, force: true });

    const output = execFileSync(process.execPath, ["--import", "tsx", "bench/read-file-child.ts", scratch], { encoding: "utf8", maxBuffer: 1024 * 1024 });
    const read = JSON.parse(output.trim().split("\n").at(-1)!) as { lines: number; toolMs: number; toolRssMb: number; toolHeapMb: number; wholeMs: number; wholeRssMb: number; wholeHeapMb: number };
    rows.push(["", "", "", "", "", ""]);
    rows.push(["read_file, 100 MB file, offset near the end", "time (ms)", "peak RSS growth (MB)", "peak heap+buffers growth (MB)", "", ""]);
    rows.push([`  toolsmith read_file (limit 100, ${read.lines} lines)`, fmt(read.toolMs), fmt(read.toolRssMb), fmt(read.toolHeapMb), "", ""]);
    rows.push(["  for contrast: fs.readFile of the whole file", fmt(read.wholeMs), fmt(read.wholeRssMb), fmt(read.wholeHeapMb), "", ""]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return rows;
}

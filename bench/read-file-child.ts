/**
 * Run by bench/builtin-tools.ts in a fresh process: writes a 100 MB file,
 * reads 100 lines near its end through the read_file tool's backend, and
 * prints time and peak memory growth as JSON; then, for contrast, the same
 * figures for reading the whole file at once.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { State } from "../src/index.js";
import { FilesystemBackend } from "../src/tools/builtin/index.js";

const directory = process.argv[2]!;
const path = join(directory, "big.log");
const line = `${"0123456789".repeat(7)} log line\n`;
const lines = Math.ceil((100 * 1024 * 1024) / line.length);
const fd = openSync(path, "w");
const block = line.repeat(10_000);
for (let written = 0; written < lines; written += 10_000) writeSync(fd, block);
closeSync(fd);
const totalLines = Math.ceil(lines / 10_000) * 10_000;

/** Peak growth of RSS and of heap + buffers while `work` runs, sampled every millisecond. */
async function measure(work: () => Promise<unknown>) {
  globalThis.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed + base.arrayBuffers;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed + now.arrayBuffers);
  }, 1);
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  const now = process.memoryUsage();
  clearInterval(timer);
  peakRss = Math.max(peakRss, now.rss);
  peakHeap = Math.max(peakHeap, now.heapUsed + now.arrayBuffers);
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return { ms, rssMb: mb(peakRss - base.rss), heapMb: mb(peakHeap - base.heapUsed - base.arrayBuffers), result };
}

const backend = new FilesystemBackend({ rootDirectory: directory });
const tool = await measure(() => backend.readLines({ context: { state: new State({}, {}) }, path: "/big.log", offset: totalLines - 100, limit: 100 }));
const read = tool.result as { lines: string[] };
if (read.lines.length !== 100) throw new Error(`expected 100 lines, got ${read.lines.length}`);
const whole = await measure(() => readFile(path, "utf8").then((text) => text.length));
console.log(JSON.stringify({ lines: totalLines, toolMs: tool.ms, toolRssMb: tool.rssMb, toolHeapMb: tool.heapMb, wholeMs: whole.ms, wholeRssMb: whole.rssMb, wholeHeapMb: whole.heapMb }));

/**
 * `npm run bench:wasm`: what the WebAssembly sandbox costs, beside the local
 * `execute` tool in the same run. Start-up of the Python worker (Pyodide
 * loaded in a worker thread, locked down), then one call of each tool over
 * the same small workspace (a FilesystemBackend with 20 files): a trivial
 * `execute_python`, one that reads and writes a file, `execute_bash`, and the
 * local `execute` (a real bash process). `-- --quick` measures fewer calls.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExecuteTool, createWasmExecution, FilesystemBackend } from "../src/tools/builtin/index.js";
import { InMemoryArtifactService, InMemoryMemoryService, InMemorySessionService, InvocationContext, LlmAgent, ToolContext, type Tool } from "../src/index.js";
import { printTable } from "./print-table.js";

const calls = process.argv.includes("--quick") ? 10 : 50;
const root = mkdtempSync(join(tmpdir(), "toolsmith-bench-wasm-"));
for (let index = 0; index < 20; index++) writeFileSync(join(root, `file-${index}.txt`), `line ${index}\n`.repeat(100));
const backend = new FilesystemBackend({ rootDirectory: root });

const sessionService = new InMemorySessionService();
const session = await sessionService.createSession({ appName: "bench", userId: "u" });
const context = () =>
  new ToolContext({
    invocation: new InvocationContext({
      invocationId: "bench",
      agent: new LlmAgent({ name: "bench" }),
      session,
      sessionService,
      artifactService: new InMemoryArtifactService(),
      memoryService: new InMemoryMemoryService(),
    }),
    functionCallId: "call",
  });

/** Median and p95 of `calls` calls after two warm-up ones, in ms; fails if any call does not succeed. */
async function time(tool: Tool, args: Record<string, unknown>): Promise<{ median: number; p95: number }> {
  const samples: number[] = [];
  for (let index = 0; index < calls + 2; index++) {
    const started = performance.now();
    const result = (await tool.run(args, context())) as Record<string, unknown>;
    const elapsed = performance.now() - started;
    if (result.status !== "success") throw new Error(`${tool.name} failed: ${JSON.stringify(result)}`);
    if (index >= 2) samples.push(elapsed);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, p95: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.95))]! };
}

const execution = createWasmExecution({ backend });
const startedAt = performance.now();
await execution.start();
const startup = performance.now() - startedAt;
const [python, bash] = [execution.tools.find((tool) => tool.name === "execute_python")!, execution.tools.find((tool) => tool.name === "execute_bash")!];

const figures: [string, { median: number; p95: number }][] = [
  ["execute_python: 1 + 1", await time(python, { code: "1 + 1" })],
  ["execute_python: read a file, write one", await time(python, { code: "open('out.txt', 'w').write(str(len(open('file-1.txt').read())))" })],
  ["execute_bash (just-bash): wc -l file-1.txt", await time(bash, { command: "wc -l file-1.txt" })],
  ["execute, local (bash process): wc -l file-1.txt", await time(createExecuteTool({ backend }), { command: "wc -l file-1.txt" })],
];
await execution.close();
rmSync(root, { recursive: true, force: true });

console.log(`WebAssembly sandbox, Node ${process.version}, ${process.platform}/${process.arch}; workspace of 20 files; ${calls} calls each after 2 warm-up ones`);
console.log(`start-up of the Python worker (Pyodide load and lock-down): ${startup.toFixed(0)} ms`);
printTable([["call", "median", "p95"], ...figures.map(([name, figure]) => [name, `${figure.median.toFixed(2)} ms`, `${figure.p95.toFixed(2)} ms`])]);

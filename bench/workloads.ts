/**
 * The core workloads, written once per framework with the same shape: the same
 * tool, the same scripted model turns, the same measurements.
 */
export interface Framework {
  name: string;
  /** Runs `turns` user turns; each turn is a model call to the tool, the tool, and a text answer. */
  conversation(turns: number): Promise<{ modelCalls: number }>;
  /** One model response with `calls` calls of a tool that waits `waitMs`, then an answer. */
  parallelCalls(calls: number, waitMs: number): Promise<void>;
  /** Creates `count` sessions with one turn each; returns the session service holding them. */
  sessions(count: number): Promise<unknown>;
}

export function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

/**
 * W1: µs of framework time per model turn, median and p95 over `runs` conversations of `turns` turns, after
 * `warmups` conversations (30 unless given: the figure then includes V8 still compiling the framework's code;
 * with a thousand more, the steady state a long-running server reaches).
 */
export async function overheadPerModelTurn(framework: Framework, runs: number, turns: number, warmups = 30) {
  for (let warmup = 0; warmup < warmups; warmup++) await framework.conversation(turns);
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const { modelCalls } = await framework.conversation(turns);
    samples.push(((performance.now() - started) * 1000) / modelCalls);
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

/** W2: wall time (ms) of one response with `calls` tool calls that each wait `waitMs`; the median of `runs` runs after one warm-up. */
export async function parallelWallTime(framework: Framework, calls: number, waitMs: number, runs = 5) {
  await framework.parallelCalls(calls, waitMs);
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await framework.parallelCalls(calls, waitMs);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return percentile(samples, 0.5);
}

/**
 * W3: bytes per stored session after garbage collection: the JavaScript heap plus memory held outside it
 * (`external`: buffers and native handles), so that no framework's figure leaves out what it keeps off the heap.
 */
export async function heapPerSession(framework: Framework, count: number) {
  // A warm-up past every path a session takes (toolsmith packs the sessions beyond its 1,000 live ones), so the
  // figure holds sessions, not code compiled on first use.
  await framework.sessions(1_200);
  const before = await settledMemory();
  const handle = await framework.sessions(count);
  const after = await settledMemory();
  if (!handle) throw new Error("the sessions were not kept");
  return (after - before) / count;
}

/**
 * The memory still held after garbage collection: the JavaScript heap plus what is held outside it (`external`).
 * Collected twice, with a pause between: native handles (zlib's, say) are let go by finalizers that run after a
 * collection. Needs `--expose-gc`.
 */
export async function settledMemory(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("Run the benchmark with node --expose-gc (npm run bench does).");
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

import { spawn } from "node:child_process";

/** The longest delay `setTimeout` keeps (2^31 - 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Options of {@link runCommand}. */
export interface RunCommandRequest {
  /** The program and its arguments (a shell is the caller's choice). */
  argv: readonly string[];
  /** The name the program sees as its own (`argv[0]`); default the program's path. A shell names itself by it in its messages. */
  argv0?: string;
  cwd: string;
  /** Milliseconds the command may take; then everything it started is killed. Without it, no limit. */
  timeoutMs?: number;
  /** Bytes of standard output and error kept together; more is read and dropped. */
  maxOutputBytes: number;
  /** What the command reads on its standard input (which is then closed); without it, the input is empty. */
  input?: string | Uint8Array;
  abortSignal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** What a command did. */
export interface RunCommandResult {
  /** The exit code, or `undefined` when a signal ended it. */
  exitCode?: number;
  signal?: string;
  /** Standard output and error, interleaved as they arrived, cut at `maxOutputBytes`. */
  output: string;
  /** The standard output within `output`. */
  stdout: string;
  /** The standard error within `output`. */
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
}

/**
 * Runs a command in a process group of its own, so the timeout (or an abort)
 * ends everything it started, grandchildren included; background processes
 * left when the command exits are ended too, or they would hold its output
 * open. Output beyond the cap is read and dropped, so the command never
 * blocks on a full pipe.
 */
export function runCommand(request: RunCommandRequest): Promise<RunCommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(request.argv[0]!, request.argv.slice(1), { cwd: request.cwd, detached: true, stdio: [request.input === undefined ? "ignore" : "pipe", "pipe", "pipe"], env: request.env, argv0: request.argv0 });
    if (request.input !== undefined) {
      // A command that exits without reading all its input closes the pipe: that is its choice, not a failure here.
      child.stdin!.on("error", () => {});
      child.stdin!.end(request.input);
    }
    // Each kept piece with the stream it came from: `output` interleaves them, `stdout` and `stderr` part them.
    const chunks: Array<{ fromStderr: boolean; piece: Buffer }> = [];
    let kept = 0;
    let truncated = false;
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is already gone.
      }
    };
    const collect = (fromStderr: boolean) => (chunk: Buffer) => {
      if (kept >= request.maxOutputBytes) {
        truncated = true;
        return;
      }
      const room = request.maxOutputBytes - kept;
      if (chunk.length > room) truncated = true;
      const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push({ fromStderr, piece });
      kept += piece.length;
    };
    child.stdout!.on("data", collect(false));
    child.stderr!.on("data", collect(true));
    // Node fires a timer longer than its maximum (about 24.8 days) at once: such a limit is no limit.
    const timer =
      request.timeoutMs === undefined || request.timeoutMs > MAX_TIMER_MS
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killGroup();
          }, request.timeoutMs);
    const onAbort = () => killGroup();
    request.abortSignal?.addEventListener("abort", onAbort, { once: true });
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      killGroup();
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      request.abortSignal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      request.abortSignal?.removeEventListener("abort", onAbort);
      const final = exit ?? { code, signal };
      resolve({
        exitCode: final.code ?? undefined,
        signal: final.signal ?? undefined,
        output: Buffer.concat(chunks.map((chunk) => chunk.piece)).toString("utf8"),
        stdout: Buffer.concat(chunks.filter((chunk) => !chunk.fromStderr).map((chunk) => chunk.piece)).toString("utf8"),
        stderr: Buffer.concat(chunks.filter((chunk) => chunk.fromStderr).map((chunk) => chunk.piece)).toString("utf8"),
        truncated,
        timedOut,
      });
    });
  });
}

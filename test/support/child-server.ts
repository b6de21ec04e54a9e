import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** A free TCP port on 127.0.0.1 (listen on port 0, read it, let go). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

/** A server process started by a test, stopped by `stop()`. */
export interface ChildServer {
  process: ChildProcess;
  port: number;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts `node args…` with `PORT` set to a free port and waits (bounded) until
 * `ready` appears in its output.
 */
export async function startChildServer(options: { args: string[]; ready: RegExp; env?: Record<string, string>; port?: number; timeoutMs?: number }): Promise<ChildServer> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, options.args, { env: { ...process.env, PORT: String(port), ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${options.timeoutMs ?? 20_000} ms: ${output}`)), options.timeoutMs ?? 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${output}`));
    });
  });
  return {
    process: child,
    port,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

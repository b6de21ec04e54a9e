import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { CliIo } from "./cli-io.js";
import { UsageError } from "./exit-codes.js";

/** The `--port` value as a port number (0 picks a free one), or a usage error saying what is wrong. */
export function parsePort(value: string | undefined): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${value}".`);
  return port;
}

/**
 * Starts a server; a port that is taken or forbidden is the user's setup to
 * fix, said in one line (after `cleanUp`, which releases what was opened for it).
 */
export async function listenOn<T>(port: number, start: () => Promise<T>, cleanUp: () => Promise<void> = async () => undefined): Promise<T> {
  try {
    return await start();
  } catch (error) {
    await cleanUp();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new ConfigurationError("PORT_IN_USE", `Port ${port} is in use: stop what listens there, or pass --port with another number (--port 0 picks a free one).`);
    if (code === "EACCES") throw new ConfigurationError("PORT_IN_USE", `Port ${port} needs privileges this user does not have: pass --port 1024 or higher.`);
    throw error;
  }
}

/** Resolves when the user interrupts the command (Ctrl-C, SIGTERM): servers run until then. */
export function untilInterrupted(io: CliIo): Promise<void> {
  return new Promise((resolve) => (io.interrupt.aborted ? resolve() : io.interrupt.addEventListener("abort", () => resolve(), { once: true })));
}

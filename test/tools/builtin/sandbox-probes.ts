/** Shared probes of the sandbox tests: a server that counts who reaches it, and whether a fork bomb can be held here. */
import { createServer, type Server } from "node:net";
import { beforeAll } from "vitest";
import { checkBubblewrap } from "../../../src/tools/builtin/shell/bubblewrap.js";
import { createPidsCgroup } from "../../../src/tools/builtin/shell/pids-cgroup.js";

/** A server on 127.0.0.1 (or a unix socket path) that counts connections and greets each with "hello". */
export async function countingServer(at?: string): Promise<{ port: number; connections(): number; close(): void }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.on("error", () => undefined);
    socket.end("hello");
  });
  await new Promise<void>((resolve) => (at === undefined ? server.listen(0, "127.0.0.1", resolve) : server.listen(at, resolve)));
  const address = server.address();
  return { port: typeof address === "object" && address ? address.port : 0, connections: () => connections, close: () => server.close() };
}

/**
 * Whether a fork bomb can be held to a process limit on this host. The kernel does not apply the process limit
 * (RLIMIT_NPROC) to the host's root user; then only a pids cgroup holds one, and without a writable one the bomb
 * is not run (said on the console).
 */
export async function forkBombCanBeHeld(): Promise<boolean> {
  if (process.getuid?.() !== 0) return true;
  const cgroup = await createPidsCgroup(8);
  await cgroup?.remove();
  if (!cgroup) console.log("running as root without a writable pids cgroup: the process limit cannot be enforced here, so the fork bomb is not run");
  return cgroup !== undefined;
}

/**
 * Checks, before the file's tests, whether bubblewrap can sandbox on this host; `unavailable` then holds why not
 * (said on the console once, with what each test checks instead).
 */
export function sandboxAvailability(insteadEachTest: string): { readonly unavailable: string | undefined } {
  const state: { unavailable: string | undefined } = { unavailable: undefined };
  beforeAll(async () => {
    const check = await checkBubblewrap();
    if (!check.ok) {
      state.unavailable = check.reason;
      console.log(`bubblewrap cannot sandbox on this host, so ${insteadEachTest}: ${check.reason}`);
    }
  });
  return state;
}

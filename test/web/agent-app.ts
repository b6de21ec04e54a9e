import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { startToolsmith } from "./browser.js";

/** An agents folder in a temporary directory with one app, whose `import "toolsmith"` finds this checkout. */
export function writeAgentApp(app: string, source: string): string {
  const root = mkdtempSync(join(tmpdir(), `toolsmith-${app}-app-`));
  mkdirSync(join(root, "node_modules"));
  symlinkSync(new URL("../../", import.meta.url).pathname, join(root, "node_modules", "toolsmith"), "dir");
  mkdirSync(join(root, "agents", app), { recursive: true });
  writeFileSync(join(root, "agents", app, "agent.ts"), source);
  return join(root, "agents");
}

/**
 * Stops `toolsmith web`, killing it after 5 s: with an HTTP MCP toolset it
 * does not always exit on SIGINT when started from vitest (it does from a
 * plain node process), a known issue outside these tests.
 */
export async function stopServing(server: Awaited<ReturnType<typeof startToolsmith>> | undefined): Promise<void> {
  await Promise.race([server?.stop(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  server?.process.kill("SIGKILL");
}

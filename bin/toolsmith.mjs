#!/usr/bin/env node
// The toolsmith command. It runs the built CLI (dist/), which loads TypeScript agent modules
// through Node's own type stripping or tsx. In a checkout of toolsmith itself, a process started
// with `--conditions=toolsmith-source --import tsx` runs the CLI from its TypeScript sources
// instead, so the test suite exercises the code as it stands.
import { existsSync } from "node:fs";

const fromSource = process.execArgv.some((flag) => flag.includes("toolsmith-source"));
const entry = new URL(fromSource ? "../src/cli/main.ts" : "../dist/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("toolsmith: the built CLI is missing (dist/cli/main.js). In a checkout of toolsmith, run npm run build; otherwise reinstall toolsmith.\n");
  process.exit(1);
}
const { runCli } = await import(entry.href);
process.exitCode = await runCli(process.argv.slice(2));
// Servers keep the event loop alive until interrupted; other commands end here.
if (!["web", "api-server", "mcp"].includes(process.argv[2] ?? "")) process.exit(process.exitCode);
// web and api-server return once they have drained their runs and closed their stores and toolsets. Whatever
// still holds the event loop then (a keep-alive socket of an HTTP MCP client, a library's timer) must not keep a
// stopped server from exiting: the process ends by itself, or a second later at the latest (its output flushed).
else if (process.argv[2] !== "mcp") setTimeout(() => process.exit(process.exitCode), 1_000).unref();

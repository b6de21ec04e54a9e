#!/usr/bin/env node
// The toolsmith command. tsx is registered first so agent modules written in
// TypeScript load without a build step; without a build of toolsmith itself
// (a fresh clone), the CLI runs from its TypeScript sources the same way.
import { existsSync } from "node:fs";
import { register } from "tsx/esm/api";

register();
const built = new URL("../dist/cli/main.js", import.meta.url);
const { runCli } = await import(existsSync(built) ? built.href : new URL("../src/cli/main.ts", import.meta.url).href);
process.exitCode = await runCli(process.argv.slice(2));
// Servers keep the event loop alive until interrupted; other commands end here.
if (!["web", "api-server"].includes(process.argv[2] ?? "")) process.exit(process.exitCode);

import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";
import type { CliIo } from "./cli-io.js";
import { EXIT, UsageError } from "./exit-codes.js";
import { projectFiles } from "./project-template.js";

/** Options of {@link createCommand}. */
export interface CreateCommandOptions {
  io: CliIo;
  /** The folder to make (a path; its last segment names the package and the agent). */
  name?: string;
  /** The model `agent.ts` uses when AGENT_MODEL is unset. Default: the offline stand-in. */
  model?: string;
}

/** npm's rule for a package name, which the folder's name becomes. */
const PACKAGE_NAME = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * `toolsmith create <name>`: writes an agent project that runs offline at once
 * (see {@link projectFiles}). It never writes into a folder that holds files.
 */
export async function createCommand(options: CreateCommandOptions): Promise<number> {
  const { io } = options;
  if (!options.name) throw new UsageError("toolsmith create needs a name for the project's folder, such as: toolsmith create my-agent");
  const dir = resolve(options.name);
  const projectName = basename(dir);
  if (!PACKAGE_NAME.test(projectName) || projectName.length > 214) {
    throw new UsageError(`"${projectName}" cannot name an npm package: use lower-case letters, digits, "-", "_" and ".", starting with a letter or digit, such as my-agent.`);
  }
  if (existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0)) {
    throw new ConfigurationError("PROJECT_EXISTS", `${dir} already exists and is not an empty folder; nothing was written. Pick another name, or empty it first.`);
  }
  const files = projectFiles({ projectName, agentName: agentNameOf(projectName), toolsmithVersion: TOOLSMITH_VERSION, model: options.model });
  mkdirSync(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content, { flag: "wx" });
  io.stdout.write(
    `Created ${options.name}/ with ${Object.keys(files).join(", ")}.\n\n` +
      `  cd ${options.name}\n  npm install\n  npx toolsmith run       # chat with it, offline\n  npm test                # its test\n\n` +
      "To use a real model, copy .env.example to .env and set AGENT_MODEL and its key.\n",
  );
  return EXIT.OK;
}

/** An agent name must be an identifier (ADK's rule): `my-agent` becomes `my_agent`, `2fa` becomes `agent_2fa`, the reserved `user` becomes `user_agent`. */
export function agentNameOf(projectName: string): string {
  const name = projectName.replace(/[^A-Za-z0-9_]/g, "_");
  // "user" is the author of the person's own messages, so ADK reserves it.
  if (name === "user") return "user_agent";
  return /^[A-Za-z_]/.test(name) ? name : `agent_${name}`;
}

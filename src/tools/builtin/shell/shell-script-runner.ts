import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import type { ScriptLanguage, ScriptRunner } from "../../skills/script-runner.js";
import { createCommandRunner, type ExecuteToolOptions } from "./execute-tool.js";

/** The programs that run each language, looked up on the command's PATH (the sandbox's, when sandboxed). */
const INTERPRETERS: Record<ScriptLanguage, string> = { python: "python3", shell: "bash", javascript: "node" };

/** A word the shell reads back unchanged. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs skills' scripts the way the `execute` tool runs commands, with the same
 * options: in the workspace, with its time limit and output cap, and under
 * bubblewrap when `sandbox` is set (never on the host instead). The skill's
 * files are written to a fresh folder for each run, shown to the script
 * (read-only in the sandbox) and named by `SKILL_DIR`; the folder is removed
 * afterwards. Files the script writes to the workspace stay there, where the
 * file tools see them.
 */
export function createShellScriptRunner(options: ExecuteToolOptions): ScriptRunner {
  const runner = createCommandRunner(options);
  const interpreters = { ...INTERPRETERS, shell: runner.shellName };
  return async ({ scriptPath, language, args, files, context }) => {
    const folder = await mkdtemp(join(tmpdir(), "toolsmith-skill-"));
    try {
      for (const [path, content] of files) {
        const target = resolve(folder, path);
        // The loaders admit no path that leaves the skill, and this holds even for a skill built by hand.
        if (!target.startsWith(folder + sep)) throw new Error(`the skill's file ${JSON.stringify(path)} lies outside its folder`);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, content);
      }
      const command = [`SKILL_DIR=${shellQuote(folder)}`, interpreters[language], shellQuote(join(folder, scriptPath)), ...args.map(shellQuote)].join(" ");
      return await runner.run(command, { abortSignal: context.abortSignal, readOnlyPaths: [folder] });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  };
}

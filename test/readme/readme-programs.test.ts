/**
 * Every TypeScript block of the README that is a complete program (it starts
 * with its imports and is not marked `<!-- fragment -->`) is type-checked as a
 * module of its own, with toolsmith imported by name as a user writes it.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const repositoryRoot = new URL("../../", import.meta.url).pathname;

/** A ```ts block of the README: where it starts, and whether it is a whole program. */
export interface ReadmeBlock {
  line: number;
  code: string;
  program: boolean;
}

/** The README's ```ts blocks. A block preceded by `<!-- fragment -->` is a piece of a program, as is one that does not start with imports. */
export function readmeBlocks(readme: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  for (const match of readme.matchAll(/(<!-- fragment -->\n)?```ts\n([\s\S]*?)```/g)) {
    const code = match[2]!;
    const startsWithImports = /^(\s*\/\/[^\n]*\n)*\s*import\s/.test(code);
    blocks.push({ line: readme.slice(0, match.index).split("\n").length + (match[1] ? 1 : 0), code, program: !match[1] && startsWithImports });
  }
  return blocks;
}

describe("the README", () => {
  const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
  const blocks = readmeBlocks(readme);
  // Inside the repository, so `import "toolsmith"` resolves through package.json's exports as in a user's project.
  const dir = join(repositoryRoot, "test/readme/.programs");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("counts the ADK programs run side by side as many as test/adk-compat/programs holds", () => {
    const folders = readdirSync(join(repositoryRoot, "test/adk-compat/programs"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(readme.match(/The (\d+) programs under\n?\s*`test\/adk-compat\/programs\/`/)?.[1]).toBe(String(folders.length));
  });

  it("marks its pieces of programs, so every other TypeScript block is a whole program", () => {
    const programs = blocks.filter((block) => block.program);
    console.log(`README: ${blocks.length} TypeScript blocks, ${programs.length} complete programs`);
    expect(programs.length).toBeGreaterThanOrEqual(10);
    for (const block of blocks.filter((candidate) => !candidate.program)) {
      // A fragment is marked as one; an unmarked block that does not start with imports would be checked by nobody.
      expect({ line: block.line, marked: readme.split("\n")[block.line - 2] === "<!-- fragment -->" }).toEqual({ line: block.line, marked: true });
    }
  });

  it("type-checks every complete program under strict TypeScript", async () => {
    mkdirSync(dir, { recursive: true });
    const files = blocks
      .filter((block) => block.program)
      .map((block) => {
        const file = join(dir, `readme-line-${block.line}.ts`);
        // `export {}` keeps each program a module of its own, so top-level names do not collide.
        writeFileSync(file, `${block.code}\nexport {};\n`);
        return file;
      });
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../../../tsconfig.json", compilerOptions: { noEmit: true, rootDir: "../../.." }, include: ["*.ts"] }, null, 2),
    );
    const result = await promisify(execFile)(process.execPath, [join(repositoryRoot, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { cwd: repositoryRoot }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(files.length).toBeGreaterThan(0);
    expect(result.replaceAll(`${dir}/`, "")).toBe("");
  }, 120_000);
});

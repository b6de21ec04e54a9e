import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { State } from "../../../src/index.js";
import { findRipgrep, FilesystemBackend, globFiles, grepSearch, type GrepOutputMode } from "../../../src/tools/builtin/index.js";
import { ripgrepOnPath } from "../../../src/tools/builtin/filesystem/ripgrep-binary.js";

const root = mkdtempSync(join(tmpdir(), "toolsmith-rg-"));
const files: Record<string, string | Buffer> = {
  "a.txt": "needle here\nno match\nneedle again and needle\n",
  "b.md": "café needle ünïcode\r\nsecond needle line\r\n",
  "nested/deep/c.ts": "export const needle = 1;\n",
  "nested/d.ts": "nothing to see",
  "nested/no-newline.ts": "last line needle",
  ".hidden/e.txt": "hidden needle\n",
  ".dotfile": "needle in dotfile\n",
  "empty.txt": "",
  "binary.bin": Buffer.concat([Buffer.from("needle\0\0binary"), Buffer.alloc(100)]),
  "long.txt": `${"y".repeat(20_000)}needle${"z".repeat(100)}\n`,
  "special/[brackets].txt": "needle (with) [regex] chars.*\n",
  "node_modules/pkg/index.js": "needle in node_modules\n",
  ".gitignore": "ignored.txt\n",
  "ignored.txt": "needle in a file .gitignore lists\n",
};

beforeAll(() => {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  symlinkSync(join(root, "a.txt"), join(root, "link-to-a.txt"));
  symlinkSync(join(root, "nested"), join(root, "link-to-nested"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("grep and glob: ripgrep and the JavaScript search agree", () => {
  it("finds a ripgrep binary: rg on the PATH first (as seed 002), else the one @vscode/ripgrep ships", async () => {
    expect(await findRipgrep()).toMatch(/rg$/);
    // A PATH directory holding an executable rg wins; directories without one are skipped.
    const bin = mkdtempSync(join(tmpdir(), "toolsmith-rg-path-"));
    try {
      writeFileSync(join(bin, "rg"), "#!/bin/sh\n", { mode: 0o755 });
      expect(await ripgrepOnPath(["/nonexistent-dir", bin].join(delimiter))).toBe(join(bin, "rg"));
      expect(await ripgrepOnPath("/nonexistent-dir")).toBeUndefined();
      expect(await ripgrepOnPath(undefined)).toBeUndefined();
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  const patterns = ["needle", "needle (with) [regex] chars.*", "café", "\r", "not present anywhere"];
  const modes: GrepOutputMode[] = ["files_with_matches", "content", "count"];
  const scopes: Array<[string, string | undefined]> = [["/", undefined], ["/", "*.ts"], ["/nested", undefined], ["/", "nested/**/*.ts"], ["/", "*.{md,txt}"]];

  it("returns identical grep results for every pattern, mode, path and glob", async () => {
    const backend = new FilesystemBackend({ rootDirectory: root });
    const context = { state: new State({}, {}) };
    const ripgrep = (await findRipgrep())!;
    let compared = 0;
    for (const pattern of patterns) {
      for (const mode of modes) {
        for (const [path, glob] of scopes) {
          const request = { backend, context, pattern, path, glob, mode };
          const fromRipgrep = await grepSearch({ ...request, ripgrep });
          const fromJavascript = await grepSearch(request);
          expect(fromJavascript, `${pattern} ${mode} ${path} ${glob}`).toEqual(fromRipgrep);
          compared += fromRipgrep.length;
        }
      }
    }
    // The comparison is over real matches, not empty lists.
    expect(compared).toBeGreaterThan(50);
    const all = await grepSearch({ backend, context, pattern: "needle", path: "/", mode: "files_with_matches", ripgrep });
    const paths = all.map((result) => result.path);
    // Hidden and ignored files are searched, binary files and symlinks are not.
    expect(paths).toEqual(expect.arrayContaining(["/.hidden/e.txt", "/.dotfile", "/ignored.txt", "/node_modules/pkg/index.js", "/long.txt"]));
    expect(paths).not.toContain("/binary.bin");
    expect(paths.some((path) => path.includes("link-to"))).toBe(false);
  });

  it("returns identical glob results", async () => {
    const backend = new FilesystemBackend({ rootDirectory: root });
    const context = { state: new State({}, {}) };
    const ripgrep = (await findRipgrep())!;
    for (const [pattern, path] of [["**/*.ts", "/"], ["*", "/"], ["**/*.{md,txt}", "/"], ["**", "/nested"], ["/nested/**/c.ts", "/"], ["**/[[]brackets].txt", "/"], ["**/.*", "/"], ["**/nested/**", "/"], ["**/*.t?", "/nested"]] as const) {
      const fromRipgrep = await globFiles({ backend, context, pattern, path, ripgrep });
      const fromJavascript = await globFiles({ backend, context, pattern, path });
      expect(fromJavascript, pattern).toEqual(fromRipgrep);
      expect(fromRipgrep.length, pattern).toBeGreaterThan(0);
    }
  });
});

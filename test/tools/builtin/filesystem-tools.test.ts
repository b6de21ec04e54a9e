import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CompositeBackend, createExecuteTool, createFilesystemTools, FilesystemBackend, StateBackend, StoreBackend, storeBackend, type Backend } from "../../../src/tools/builtin/index.js";
import { pick, toolHarness } from "./tool-harness.js";

const scratch = mkdtempSync(join(tmpdir(), "toolsmith-fs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;

const backends: Array<[string, () => Backend]> = [
  ["StateBackend", () => new StateBackend()],
  ["FilesystemBackend", () => new FilesystemBackend({ rootDirectory: mkdirSync(join(scratch, `root-${++counter}`), { recursive: true })! })],
  ["CompositeBackend", () => new CompositeBackend({ defaultBackend: new StateBackend(), routes: { "/memories": new StoreBackend() } })],
  ["StoreBackend", () => new StoreBackend()],
];

describe.each(backends)("filesystem tools over %s", (_name, makeBackend) => {
  async function setup() {
    const harness = await toolHarness();
    const tools = createFilesystemTools({ backend: makeBackend() });
    const run = (name: string, args: Record<string, unknown>) => harness.call(pick(tools, name), args);
    return { ...harness, run };
  }

  it("writes a file, lists it, and reads it back with cat -n line numbers", async () => {
    const { run } = await setup();
    expect(await run("write_file", { file_path: "/src/main.ts", content: "one\ntwo\nthree\n" })).toEqual({ status: "success", path: "/src/main.ts" });
    const time = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
    expect(await run("ls", { path: "/" })).toEqual({ status: "success", entries: expect.arrayContaining([{ path: "/src", is_dir: true, size: 0, modified_at: time }]) });
    expect(await run("ls", { path: "/src" })).toEqual({ status: "success", entries: [{ path: "/src/main.ts", is_dir: false, size: 14, modified_at: time }] });
    expect(await run("read_file", { file_path: "/src/main.ts" })).toEqual({ status: "success", content: "     1\tone\n     2\ttwo\n     3\tthree" });
  });

  it("pages with offset and limit and says how to continue", async () => {
    const { run } = await setup();
    const content = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join("\n");
    await run("write_file", { file_path: "/a.txt", content });
    const page = await run("read_file", { file_path: "/a.txt", offset: 2, limit: 3 });
    expect(page.content).toBe("     3\tline 3\n     4\tline 4\n     5\tline 5\n... (5 more lines. Use offset=5 to continue reading)");
    expect(await run("read_file", { file_path: "/a.txt", offset: 50 })).toMatchObject({ status: "error", message: expect.stringContaining("past the end") });
  });

  it("splits lines over 5,000 characters into numbered continuations", async () => {
    const { run } = await setup();
    await run("write_file", { file_path: "/long.txt", content: `short\n${"x".repeat(12_000)}\nend` });
    const rows = String((await run("read_file", { file_path: "/long.txt" })).content).split("\n");
    expect(rows.map((row) => row.split("\t")[0]!.trim())).toEqual(["1", "2", "2.1", "2.2", "3"]);
    expect(rows[3]!.split("\t")[1]).toHaveLength(2_000);
  });

  it("refuses to overwrite with write_file and points to edit_file; the file is unchanged", async () => {
    const { run } = await setup();
    await run("write_file", { file_path: "/a.txt", content: "first" });
    const result = await run("write_file", { file_path: "/a.txt", content: "second" });
    expect(result).toEqual({ status: "error", code: "EXISTS", message: "File already exists: /a.txt. Use edit_file to modify." });
    expect((await run("read_file", { file_path: "/a.txt" })).content).toBe("     1\tfirst");
  });

  it("edit_file replaces exactly once, or all with replace_all, and explains each refusal", async () => {
    const { run } = await setup();
    await run("write_file", { file_path: "/e.txt", content: "a b a b a" });
    expect(await run("edit_file", { file_path: "/e.txt", old_string: "", new_string: "x" })).toMatchObject({ status: "error", message: expect.stringContaining("old_string is empty") });
    expect(await run("edit_file", { file_path: "/e.txt", old_string: "zzz", new_string: "x" })).toMatchObject({ status: "error", message: expect.stringMatching(/^old_string not found in file content/) });
    expect(await run("edit_file", { file_path: "/e.txt", old_string: "a", new_string: "a" })).toEqual({ status: "error", message: "old_string and new_string are identical" });
    expect(await run("edit_file", { file_path: "/e.txt", old_string: "a", new_string: "c" })).toEqual({ status: "error", message: "old_string appears 3 times. Provide more context to make it unique, or set replace_all=True.", occurrences: 3 });
    expect((await run("read_file", { file_path: "/e.txt" })).content).toBe("     1\ta b a b a");
    expect(await run("edit_file", { file_path: "/e.txt", old_string: "b a b", new_string: "B" })).toEqual({ status: "success", path: "/e.txt", occurrences: 1 });
    expect(await run("edit_file", { file_path: "/e.txt", old_string: "a", new_string: "$&c", replace_all: true })).toEqual({ status: "success", path: "/e.txt", occurrences: 2 });
    expect((await run("read_file", { file_path: "/e.txt" })).content).toBe("     1\t$&c B $&c");
    expect(await run("edit_file", { file_path: "/missing.txt", old_string: "a", new_string: "b" })).toMatchObject({ status: "error", code: "NOT_FOUND" });
  });

  it("globs with ** and braces, and greps literally in three output modes", async () => {
    const { run } = await setup();
    await run("write_file", { file_path: "/src/a.ts", content: "const x = 1; // TODO(x)\nlet y;\n" });
    await run("write_file", { file_path: "/src/deep/b.ts", content: "TODO(x) once\nand TODO(x) twice\n" });
    await run("write_file", { file_path: "/docs/c.md", content: "TODO(x) in docs" });
    await run("write_file", { file_path: "/docs/d.txt", content: "nothing" });
    const paths = (result: Record<string, unknown>) => (result.entries as Array<{ path: string }>).map((entry) => entry.path);
    const globbed = await run("glob", { pattern: "**/*.ts" });
    expect(globbed).toMatchObject({ status: "success", entries: [{ path: "/src/a.ts", is_dir: false, size: 31 }, { path: "/src/deep/b.ts", is_dir: false, size: 31 }] });
    expect(paths(await run("glob", { pattern: "**/*.{md,txt}" }))).toEqual(["/docs/c.md", "/docs/d.txt"]);
    expect(paths(await run("glob", { pattern: "*.ts", path: "/src" }))).toEqual(["/src/a.ts"]);
    expect(await run("glob", { pattern: "*.nothing" })).toEqual({ status: "success", entries: [] });
    // "(x)" would be a group in a regular expression; it is matched literally.
    expect(await run("grep", { pattern: "TODO(x)" })).toEqual({ status: "success", result: "/docs/c.md\n/src/a.ts\n/src/deep/b.ts" });
    expect((await run("grep", { pattern: "TODO(x)", glob: "*.ts", output_mode: "count" })).result).toBe("/src/a.ts: 1\n/src/deep/b.ts: 2");
    expect((await run("grep", { pattern: "TODO(x)", path: "/src/deep", output_mode: "content" })).result).toBe("/src/deep/b.ts:1:TODO(x) once\n/src/deep/b.ts:2:and TODO(x) twice");
    expect(await run("grep", { pattern: "absent" })).toEqual({ status: "success", result: "No matches found." });
    expect(await run("grep", { pattern: "" })).toMatchObject({ status: "error" });
  });

  it("cuts grep output at about 80,000 characters and says how to narrow the search", async () => {
    const { run } = await setup();
    await run("write_file", { file_path: "/big.txt", content: `${"needle ".repeat(15)}\n`.repeat(1_000) });
    const result = await run("grep", { pattern: "needle", output_mode: "content" });
    expect(result).toMatchObject({ status: "success", truncated: true });
    expect(String(result.result).length).toBeLessThanOrEqual(80_200);
    expect(String(result.result).length).toBeGreaterThan(79_000);
    expect(String(result.result)).toMatch(/\.\.\. \(output cut at 80000 characters\. Narrow the search with path or glob/);
  });

  it("answers missing paths and directories with errors that say what to do", async () => {
    const { run } = await setup();
    await run("write_file", { file_path: "/dir/f.txt", content: "x" });
    expect(await run("read_file", { file_path: "/nope.txt" })).toEqual({ status: "error", code: "NOT_FOUND", message: "Error: file not found: /nope.txt" });
    expect(await run("read_file", { file_path: "/dir" })).toMatchObject({ status: "error", code: "IS_DIRECTORY" });
    expect(await run("ls", { path: "/nope" })).toMatchObject({ status: "error", code: "NOT_FOUND" });
    expect(await run("ls", { path: "/dir/f.txt" })).toMatchObject({ status: "error", code: "NOT_DIRECTORY", message: expect.stringContaining("Call read_file") });
    expect(await run("write_file", { file_path: "/dir", content: "x" })).toMatchObject({ status: "error" });
  });
});

describe("StoreBackend", () => {
  it("is seed 002's name for the user's files: a StateBackend over user: keys, refusing any other prefix", async () => {
    const harness = await toolHarness();
    const tools = createFilesystemTools({ backend: new StoreBackend() });
    await harness.call(pick(tools, "write_file"), { file_path: "/notes.md", content: "kept" });
    expect(harness.session.state["user:files:/notes.md"]).toMatchObject({ content: "kept" });
    expect(storeBackend()).toBeInstanceOf(StoreBackend);
    expect(() => new StoreBackend({ keyPrefix: "files:" })).toThrow(expect.objectContaining({ code: "INVALID_STORE_PREFIX", message: expect.stringContaining('must start with "user:"') }));
  });
});

describe("filesystem paths", () => {
  it("refuses relative paths, .., ~, drive letters (seed 002's messages), NUL, backslashes and percent-escapes with a clear message", async () => {
    const harness = await toolHarness();
    const tools = createFilesystemTools({ backend: new StateBackend() });
    const cases: Array<[string, string]> = [
      ["/a/../../etc/passwd", "Path traversal not allowed: /a/../../etc/passwd"],
      ["../etc/passwd", "Path traversal not allowed: ../etc/passwd"],
      ["~/secrets", "Path traversal not allowed: ~/secrets"],
      ["C:/Windows", "Path traversal not allowed: C:/Windows"],
      ["rel.txt", "All paths must be absolute (start with /): rel.txt"],
      ["/a\u0000b", "NUL"],
      ["\\etc\\passwd", "backslash"],
      ["/%2e%2e/etc/passwd", "percent-escape"],
    ];
    for (const [path, expected] of cases) {
      const result = await harness.call(pick(tools, "read_file"), { file_path: path });
      expect(result).toMatchObject({ status: "error", code: "PATH_REFUSED", message: expect.stringContaining(expected) });
      expect(await harness.call(pick(tools, "write_file"), { file_path: path, content: "x" })).toMatchObject({ status: "error", code: "PATH_REFUSED" });
    }
    expect(Object.keys(harness.session.state)).toEqual([]);
  });

  it("refuses symlinks that lead out of a real root, also ones created after the backend started, and follows ones that stay inside", async () => {
    const root = mkdtempSync(join(scratch, "links-"));
    const outside = mkdtempSync(join(scratch, "outside-"));
    writeFileSync(join(outside, "secret.txt"), "CANARY");
    const harness = await toolHarness();
    const tools = createFilesystemTools({ backend: new FilesystemBackend({ rootDirectory: root }) });
    const run = (name: string, args: Record<string, unknown>) => harness.call(pick(tools, name), args);
    // Created after the tools exist: checked at the time of use.
    symlinkSync(outside, join(root, "escape"));
    symlinkSync(join(outside, "secret.txt"), join(root, "secret-link"));
    writeFileSync(join(root, "inside.txt"), "fine");
    symlinkSync(join(root, "inside.txt"), join(root, "inside-link"));
    expect(await run("read_file", { file_path: "/escape/secret.txt" })).toMatchObject({ status: "error", code: "PATH_REFUSED", message: expect.stringContaining("outside the workspace") });
    expect(await run("read_file", { file_path: "/secret-link" })).toMatchObject({ status: "error", code: "PATH_REFUSED" });
    expect(await run("ls", { path: "/escape" })).toMatchObject({ status: "error", code: "PATH_REFUSED" });
    expect(await run("write_file", { file_path: "/escape/new.txt", content: "x" })).toMatchObject({ status: "error", code: "PATH_REFUSED" });
    expect(await run("edit_file", { file_path: "/secret-link", old_string: "CANARY", new_string: "pwned" })).toMatchObject({ status: "error", code: "PATH_REFUSED" });
    expect(await run("grep", { pattern: "CANARY", path: "/escape" })).toMatchObject({ status: "error", code: "PATH_REFUSED" });
    expect((await run("grep", { pattern: "CANARY" })).result).toBe("No matches found.");
    expect(await run("read_file", { file_path: "/inside-link" })).toMatchObject({ status: "success", content: "     1\tfine" });
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("CANARY");
    expect(() => new FilesystemBackend({ rootDirectory: join(scratch, "missing") })).toThrow(/does not exist/);
  });

  it("searches both the disk and the routed backend when a composite's default is a real directory, and runs commands in that directory", async () => {
    const root = mkdtempSync(join(scratch, "composite-"));
    writeFileSync(join(root, "disk.txt"), "needle on disk");
    const backend = new CompositeBackend({ defaultBackend: new FilesystemBackend({ rootDirectory: root }), routes: { "/memories": storeBackend() } });
    const harness = await toolHarness();
    const tools = [...createFilesystemTools({ backend }), createExecuteTool({ backend })];
    const run = (name: string, args: Record<string, unknown>) => harness.call(pick(tools, name), args);
    await run("write_file", { file_path: "/memories/notes.md", content: "needle in memory" });
    expect(harness.session.state["user:files:/notes.md"]).toMatchObject({ content: "needle in memory" });
    expect((await run("grep", { pattern: "needle" })).result).toBe("/disk.txt\n/memories/notes.md");
    expect((await run("grep", { pattern: "needle", path: "/memories" })).result).toBe("/memories/notes.md");
    expect(await run("glob", { pattern: "**/*.{md,txt}" })).toMatchObject({ entries: [{ path: "/disk.txt", size: 14 }, { path: "/memories/notes.md", size: 16 }] });
    expect(await run("ls", { path: "/" })).toMatchObject({ entries: [{ path: "/disk.txt", is_dir: false }, { path: "/memories", is_dir: true, size: 0 }] });
    expect(await run("execute", { command: "cat disk.txt" })).toMatchObject({ status: "success", output: "needle on disk" });
  });

  it("returns images in seed 002's shape, moved into an inline image part in the next model request", async () => {
    const root = mkdtempSync(join(scratch, "img-"));
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    writeFileSync(join(root, "pic.png"), png);
    const harness = await toolHarness();
    const readFile = pick(createFilesystemTools({ backend: new FilesystemBackend({ rootDirectory: root }) }), "read_file");
    const result = await harness.call(readFile, { file_path: "/pic.png" });
    expect(result).toEqual({ status: "success", content: { type: "image", media_type: "image/png", data: png.toString("base64") } });
    const request = {
      contents: [{ role: "user", parts: [{ functionResponse: { id: "1", name: "read_file", response: result } }] }],
      systemInstruction: "", functionDeclarations: [], config: {},
    };
    await readFile.processLlmRequest!({ llmRequest: request, toolContext: harness.context() });
    expect(request.contents[0]!.parts).toEqual([
      // The bytes reach the model once, as an image; the response keeps the seed's shape without them.
      { functionResponse: { id: "1", name: "read_file", response: { status: "success", content: { type: "image", media_type: "image/png" } } } },
      { inlineData: { mimeType: "image/png", data: png.toString("base64") } },
    ]);
  });
});

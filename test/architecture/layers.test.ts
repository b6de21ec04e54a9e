/**
 * The rules of docs/architecture.md, held by the code's own imports: the
 * layers table is read from that page, so the page and this test cannot drift.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importCircles, readImportGraph, type ImportGraph } from "../support/import-graph.js";

const repository = new URL("../../", import.meta.url).pathname;
const sourceRoot = `${repository}src`;

/** Each folder named in the layers table, with its layer number. */
function layersTable(markdown: string): Map<string, number> {
  const layers = new Map<string, number>();
  for (const line of markdown.split("\n")) {
    const row = /^\| (\d+) \| ([^|]+) \|/.exec(line);
    if (!row) continue;
    for (const folder of row[2]!.matchAll(/`([^`]+)`/g)) layers.set(folder[1]!, Number(row[1]));
  }
  return layers;
}

/** The package's entry points, as `src/`-relative paths: every export's source file, and the CLI's. */
function entryPoints(): Set<string> {
  const manifest = JSON.parse(readFileSync(`${repository}package.json`, "utf8")) as { exports: Record<string, Record<string, string>> };
  const entries = Object.values(manifest.exports).map((conditions) => conditions["toolsmith-source"]!.replace(/^\.\/src\//, ""));
  return new Set([...entries, "cli/main.ts"]);
}

/** A file's layer: that of the longest folder of the table it lies in. */
function layerOf(file: string, layers: Map<string, number>): number | undefined {
  let best: { folder: string; layer: number } | undefined;
  for (const [folder, layer] of layers) if (file.startsWith(`${folder}/`) && (!best || folder.length > best.folder.length)) best = { folder, layer };
  return best?.layer;
}

/** Every import that breaks the rules: up the layers, into an entry point, or from a file no layer holds. */
function layerViolations(graph: ImportGraph, layers: Map<string, number>, entries: Set<string>): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    if (entries.has(file)) continue;
    const from = layerOf(file, layers);
    if (from === undefined) {
      violations.push(`${file} is in a folder the layers table does not place`);
      continue;
    }
    for (const target of targets) {
      if (entries.has(target)) violations.push(`${file} imports the entry point ${target}; import the module it re-exports`);
      const to = layerOf(target, layers);
      if (to !== undefined && to > from) violations.push(`${file} (layer ${from}) imports ${target} (layer ${to})`);
    }
  }
  return violations;
}

describe("the layers of src/", () => {
  const graph = readImportGraph(sourceRoot);
  const layers = layersTable(readFileSync(`${repository}docs/architecture.md`, "utf8"));
  const entries = entryPoints();

  it("reads a table of twenty-one layers from docs/architecture.md, with every entry point present", () => {
    expect(new Set(layers.values()).size).toBe(21);
    for (const entry of entries) expect(graph.has(entry), entry).toBe(true);
  });

  it("has no import circle, type-only imports included", () => {
    const imports = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    console.log(`import graph: ${graph.size} files, ${imports} imports, ${layers.size} folders in ${new Set(layers.values()).size} layers`);
    expect(importCircles(graph)).toEqual([]);
  });

  it("has no import that runs up the layers or into an entry point, and no file outside them", () => {
    expect(layerViolations(graph, layers, entries)).toEqual([]);
  });
});

describe("the rule checkers, on made-up graphs", () => {
  const layers = new Map([
    ["errors", 1],
    ["agents", 2],
    ["runner", 3],
  ]);

  it("finds a circle of three files and a file importing itself, and nothing in a chain", () => {
    const graph: ImportGraph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["d.ts"]],
      ["e.ts", ["a.ts"]],
    ]);
    expect(importCircles(graph)).toEqual([["a.ts", "b.ts", "c.ts"], ["d.ts"]]);
    expect(importCircles(new Map([["x.ts", ["y.ts"]], ["y.ts", ["z.ts"]], ["z.ts", []]]))).toEqual([]);
  });

  it("reports an import up the layers, into an entry point, and from an unplaced folder, and allows imports down and across", () => {
    const graph: ImportGraph = new Map([
      ["agents/agent.ts", ["runner/runner.ts", "errors/error.ts", "agents/tree.ts"]],
      ["agents/tree.ts", ["index.ts"]],
      ["runner/runner.ts", ["agents/agent.ts"]],
      ["stray/thing.ts", []],
      ["index.ts", ["runner/runner.ts"]],
    ]);
    expect(layerViolations(graph, layers, new Set(["index.ts"]))).toEqual([
      "agents/agent.ts (layer 2) imports runner/runner.ts (layer 3)",
      "agents/tree.ts imports the entry point index.ts; import the module it re-exports",
      "stray/thing.ts is in a folder the layers table does not place",
    ]);
  });

  it("places a file by its longest folder, so a subfolder can sit above its parent", () => {
    const nested = new Map([...layers, ["agents/extra", 3]]);
    const graph: ImportGraph = new Map([["runner/runner.ts", ["agents/extra/tool.ts"]], ["agents/agent.ts", ["agents/extra/tool.ts"]]]);
    expect(layerViolations(graph, nested, new Set())).toEqual(["agents/agent.ts (layer 2) imports agents/extra/tool.ts (layer 3)"]);
  });
});

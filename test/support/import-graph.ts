/**
 * toolsmith's own module graph, read with TypeScript's pre-processor (no
 * type-checking, so it takes milliseconds): every file under `src/` and the
 * relative modules it imports, statically or with `import()`, types included.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** A file's imports, as paths relative to the source root (`agents/agent.ts`). */
export type ImportGraph = Map<string, string[]>;

/** The graph of every `.ts` file under `root`. */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(join(root, file), "utf8");
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => relative(root, resolve(root, dirname(file), name)).replace(/\.js$/, ".ts"));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

function sourceFiles(root: string, folder = ""): string[] {
  return readdirSync(join(root, folder)).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(root, path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** Every import circle (strongly connected set of two or more files, or a file importing itself), each sorted. */
export function importCircles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1 || graph.get(file)?.includes(file)) circles.push(members.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

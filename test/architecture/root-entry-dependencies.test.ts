/**
 * What `import "toolsmith"` loads must install with toolsmith: the root entry reaches, through its static imports,
 * only the package's own dependencies and Node's modules. Optional peers (zod, vendor SDKs, drivers) load lazily,
 * through `import()`, or from a subpath entry. The packed-package test proves the same in an empty project; this
 * one says it in a second, in every run of the suite, naming the file that imports the peer.
 */
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, normalize } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repository = new URL("../../", import.meta.url).pathname;
const sourceRoot = join(repository, "src");

interface StaticImports {
  files: string[];
  packages: string[];
}

/** The specifiers a module loads when it is loaded: value imports and re-exports, not `import type` or `import()`. */
function loadedSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      const onlyTypes = clause !== undefined && clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      const clause = statement.exportClause;
      const onlyTypes = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers;
}

/** Every file and package `entry` loads, following relative imports. */
function staticImports(entry: string): StaticImports & { importedBy: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const importedBy = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of loadedSpecifiers(file)) {
      if (specifier.startsWith(".")) pending.push(normalize(join(dirname(file), specifier.replace(/\.js$/, ".ts"))));
      else if (!specifier.startsWith("node:") && !builtinModules.includes(specifier)) {
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
        packages.add(name);
        if (!importedBy.has(name)) importedBy.set(name, file.slice(sourceRoot.length + 1));
      }
    }
  }
  return { files: [...files], packages: [...packages].sort(), importedBy };
}

describe("the root entry's imports", () => {
  it("load only the package's own dependencies, never an optional peer", () => {
    const manifest = JSON.parse(readFileSync(join(repository, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const { files, packages, importedBy } = staticImports(join(sourceRoot, "index.ts"));
    const peers = packages.filter((name) => !(name in manifest.dependencies)).map((name) => `${name} (imported by src/${importedBy.get(name)})`);
    console.log(`import "toolsmith" loads ${files.length} of toolsmith's files and the packages ${packages.join(", ")}`);
    expect(peers).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });
});

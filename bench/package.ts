/**
 * `npm run bench:package` (and the last table of `npm run bench`): toolsmith
 * as a user gets it beside the Vercel AI SDK and `@google/adk`, in one run on
 * one machine. Each is installed from the registry (toolsmith from its packed
 * tarball) into an empty project of its own; then, for each, the import time
 * (median of fresh `node -e 'await import(...)'` processes, the three and a
 * bare `node -e ''` taking turns), that time as a multiple of the bare start,
 * the installed size and the package count. Nothing is asserted: the figures
 * are printed. `-- --quick` starts fewer processes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allInstalledPackages, createProject, folderBytes, installedPackages, packRepository } from "../test/support/installed-package.js";
import { printTable } from "./print-table.js";
import { bareNode, importOf, medianStartTimes } from "../test/support/start-time.js";
import { startedAs } from "./started-as.js";

const repository = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { overrides: Record<string, string>; devDependencies: Record<string, string> };

/** One package under comparison: what to install, and what a user imports. */
interface Contender {
  name: string;
  install: (tarball: string) => string[];
  overrides?: Record<string, string>;
}

const CONTENDERS: Contender[] = [
  { name: "toolsmith", install: (tarball) => [tarball] },
  // The version this repository tests its adapter with (ai 7 needs Node 22).
  { name: "ai", install: () => [`ai@${repository.devDependencies.ai}`] },
  // ADK installs only with its ORM packages pinned, as in this repository's own package.json.
  { name: "@google/adk", install: () => [`@google/adk@${repository.devDependencies["@google/adk"]}`], overrides: repository.overrides },
];

/** The table: a header, then one row per package. */
export async function packageRows(options: { quick?: boolean } = {}): Promise<string[][]> {
  const root = mkdtempSync(join(tmpdir(), "toolsmith-bench-package-"));
  try {
    const tarball = await packRepository(root);
    const projects = CONTENDERS.map((contender) => ({ contender, dir: join(root, contender.name.replace(/[@/]/g, "_")) }));
    await Promise.all(projects.map(({ contender, dir }) => createProject(dir, contender.install(tarball), { overrides: contender.overrides })));

    const runs = options.quick ? 10 : 30;
    const times = medianStartTimes([bareNode(root), ...projects.map(({ contender, dir }) => importOf(contender.name, contender.name, dir))], runs);
    const bare = times.get("bare node")!;
    const rows = [[`package (installed alone into an empty project)`, `import, median of ${runs} (ms)`, "× bare node -e ''", "installed (MB)", "packages (top level / with nested copies)"]];
    for (const { contender, dir } of projects) {
      const version = (JSON.parse(readFileSync(join(dir, "node_modules", contender.name, "package.json"), "utf8")) as { version: string }).version;
      const importMs = times.get(contender.name)!;
      rows.push([
        `${contender.name} ${version}`,
        importMs.toFixed(1),
        (importMs / bare).toFixed(2),
        (folderBytes(join(dir, "node_modules")) / 1024 / 1024).toFixed(1),
        `${installedPackages(dir).length} / ${allInstalledPackages(dir).length}`,
      ]);
    }
    rows.push(["bare node -e ''", bare.toFixed(1), "1.00", "-", "-"]);
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (startedAs("package")) {
  printTable(await packageRows({ quick: process.argv.includes("--quick") }));
  console.log(`\nnode ${process.version}, ${process.platform}/${process.arch}`);
}

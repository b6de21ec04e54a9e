import { lstat, mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, relative, sep } from "node:path";
import type { CodeExecutionFile } from "../code-executors/base-code-executor.js";
import { fileBytes, placeInside } from "../code-executors/code-files.js";

/** What {@link materializeOutputFiles} wrote, and what it refused. */
export interface MaterializedFiles {
  /** Each file written, named by its path inside the folder as written (`chart_2.png` when `chart.png` was taken). */
  written: CodeExecutionFile[];
  /** Files not written, with why: a name that leaves the folder, or passes through a link or a file in it. */
  refused: Array<{ name: string; error: string }>;
}

/** How many `name_<n>.ext` are tried before a file is refused: beyond any real use, short of looping forever. */
const MAX_RENAMES = 10_000;

/**
 * Writes a run's output files into `folder` (an absolute, real path), as ADK's `materializeFiles` does, each
 * confined to it: a name that leaves the folder (`../x`, `/etc/x`, a NUL byte) or reaches a link or a file on the
 * way (a link in the folder pointing elsewhere) is refused, not written. A file never replaces one already there
 * (nor one written at the same moment): `report.txt` taken, it is written as `report_2.txt`, then `report_3.txt`.
 * Unlike ADK's, a refused name does not stop the others being written.
 */
export async function materializeOutputFiles(files: readonly CodeExecutionFile[], folder: string): Promise<MaterializedFiles> {
  const result: MaterializedFiles = { written: [], refused: [] };
  for (const file of files) {
    try {
      const target = placeInside(folder, file.name);
      await makeFoldersInside(folder, dirname(target));
      const written = await writeNewFile(target, fileBytes(file));
      result.written.push({ ...file, name: relative(folder, written).split(sep).join("/") });
    } catch (error) {
      const leaves = (error as { code?: unknown }).code === "PATH_REFUSED";
      result.refused.push({ name: file.name, error: leaves ? "The name leaves the output folder (absolute, climbing out with .., empty or with a NUL byte), so the file was not written." : (error as Error).message });
    }
  }
  return result;
}

/** Makes the folders from `folder` down to `inner`, one at a time, refusing to pass through a link or a file. */
async function makeFoldersInside(folder: string, inner: string): Promise<void> {
  let at = folder;
  for (const segment of relative(folder, inner).split(sep).filter((part) => part !== "")) {
    at = join(at, segment);
    const found = await lstat(at).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : Promise.reject(error)));
    if (found === undefined) {
      await mkdir(at).catch((error: NodeJS.ErrnoException) => (error.code === "EEXIST" ? undefined : Promise.reject(error)));
      if ((await lstat(at)).isDirectory()) continue;
    } else if (found.isDirectory()) continue;
    throw new Error(`${JSON.stringify(relative(folder, at))} in the output folder is not a folder (a link or a file), so nothing is written through it.`);
  }
}

/** Writes `bytes` to `target`, or to `name_2.ext`, `name_3.ext`, … beside it when taken; the path written. */
async function writeNewFile(target: string, bytes: Buffer): Promise<string> {
  const ending = extname(target);
  const stem = basename(target, ending);
  let path = target;
  for (let counter = 2; counter <= MAX_RENAMES + 1; counter++) {
    try {
      // "wx" creates the file or fails: no existing file (nor a link standing in its place) is written through.
      await writeFile(path, bytes, { flag: "wx" });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      path = join(dirname(target), `${stem}_${counter}${ending}`);
    }
  }
  throw new Error(`${MAX_RENAMES} files named like ${JSON.stringify(basename(target))} are already in the output folder.`);
}

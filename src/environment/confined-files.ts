import { constants } from "node:fs";
import { open, realpath, type FileHandle } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { ToolsmithError } from "../errors/toolsmith-error.js";
import { enterFolders, HAS_PROC_FD, isInside, openedInside, openInFolder, type ConfinementRefusals } from "../platform/confined-paths.js";

/**
 * `filePath` (absolute, or relative to `workingDir`) as an absolute path, refused (`PATH_REFUSED`) when it names a
 * place outside `workingDir` as written: ADK's lexical check, with ADK's message.
 */
export function placeInWorkingDir(workingDir: string, filePath: string): string {
  const base = resolve(workingDir);
  const target = resolve(base, filePath);
  const inside = relative(base, target);
  if (filePath.includes("\0") || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new ToolsmithError("PATH_REFUSED", `Path escapes working directory: ${filePath}. Give a path inside ${base}.`);
  }
  return target;
}

/**
 * The bytes of a file inside `workingDir`. Beyond ADK's lexical check, the file opened is checked to be inside
 * the working directory's real path, so a symbolic link in it (or a folder swapped for one while the file is
 * opened) cannot lead outside; a FIFO, socket or device is refused rather than read (a FIFO would block). A file
 * that does not exist rejects with Node's `ENOENT` error, as ADK's does.
 */
export async function readFileInside(workingDir: string, filePath: string): Promise<Buffer> {
  const target = placeInWorkingDir(workingDir, filePath);
  const root = await realpath(workingDir);
  // Where descriptors cannot be checked after opening, the path is checked before (a swap in between is not caught there).
  if (!HAS_PROC_FD && !isInside(root, await realpath(target))) throw outsideError(root, filePath);
  const handle = await open(target, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    await checkOpened(handle, root, filePath);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file inside `workingDir`, making its folders. Beyond ADK's lexical check, each folder on the way is
 * made or resolved in turn and refused when it resolves outside the working directory's real path; the file is
 * created relative to its opened folder, checked first (through `/proc/self/fd`, so a folder swapped for a link
 * meanwhile cannot redirect it), without following a link in its name, and an existing file is emptied only
 * once the file opened is checked to be inside. A link to a file inside is followed.
 */
export async function writeFileInside(workingDir: string, filePath: string, content: string | Uint8Array): Promise<void> {
  const target = placeInWorkingDir(workingDir, filePath);
  const root = await realpath(workingDir);
  const segments = relative(resolve(workingDir), target).split(sep);
  const name = segments.pop()!;
  const refusals = environmentRefusals(root, filePath);
  const folder = await enterFolders(root, segments, refusals);
  const handle = await openForWriting(root, folder, name, filePath, refusals);
  try {
    await checkOpened(handle, root, filePath);
    // Emptied only now, after the opened file was checked: a file outside is never touched.
    await handle.truncate(0);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/** `name` in `folder` opened for writing (made when missing), never through a link to a place outside the root. */
async function openForWriting(root: string, folder: string, name: string, filePath: string, refusals: ConfinementRefusals): Promise<FileHandle> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  try {
    return await openInFolder(root, folder, name, flags, 0o644, refusals);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
  }
  // The name is a link: followed only to a file that exists inside the working directory (checked again once opened).
  const real = await realpath(`${folder}${sep}${name}`).catch(() => {
    throw new ToolsmithError("PATH_REFUSED", `${filePath} is a symbolic link to a file that does not exist, so it is not written through. Write the file itself.`);
  });
  if (!isInside(root, real)) throw refusals.outside();
  return open(real, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
}

/** The environments' refusals: Node's own errors kept (as ADK's environments give them), confinement's worded. */
function environmentRefusals(root: string, filePath: string): ConfinementRefusals {
  return {
    outside: () => outsideError(root, filePath),
    notFolder: (folder) => new ToolsmithError("NOT_DIRECTORY", `${filePath} cannot be written: ${folder} is a file, not a folder. Choose another path.`),
    failed: (error) => error as Error,
  };
}

/** Refuses an opened file that is outside the root (by what the descriptor is) or is not a regular file. */
async function checkOpened(handle: FileHandle, root: string, filePath: string): Promise<void> {
  if (!(await openedInside(handle, root))) throw outsideError(root, filePath);
  const stats = await handle.stat();
  if (!stats.isFile() && !stats.isDirectory()) {
    throw new ToolsmithError("NOT_A_FILE", `${filePath} is not a regular file (a FIFO, socket or device), so it is not read or written. Use a regular file.`);
  }
}

function outsideError(root: string, filePath: string): ToolsmithError {
  return new ToolsmithError("PATH_REFUSED", `${filePath} leads outside the working directory through a symbolic link, so it is refused. Use files inside ${root}.`);
}

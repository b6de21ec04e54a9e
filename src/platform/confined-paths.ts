import { constants, existsSync } from "node:fs";
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from "node:fs/promises";
import { sep } from "node:path";

/**
 * Whether this system shows open descriptors in /proc (Linux): then an opened file or folder is checked by what
 * it is, not by its name, so a folder swapped for a link between a check and a use cannot redirect the use.
 */
export const HAS_PROC_FD = existsSync("/proc/self/fd");

/**
 * How a caller of the confined walk words its refusals. ADK's environments keep Node's own errors (as ADK's
 * do); the built-in filesystem tools word every failure for the model. The walk is the same for both.
 */
export interface ConfinementRefusals {
  /** A link on the way resolves outside the root. */
  outside(): Error;
  /** `folder`, on the way to the file, is something other than a folder. */
  notFolder(folder: string): Error;
  /** A system call failed with `error` (a Node error with its `code`). */
  failed(error: unknown): Error;
}

/** Whether the real path `real` is the real path `root` or inside it. */
export function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root + sep);
}

/**
 * The folder reached from the real `root` through `segments`, one at a time: a missing folder is made, a link
 * is followed only when its real path is inside `root`, and a file on the way is refused. Nothing is made inside
 * a folder that was refused.
 */
export async function enterFolders(root: string, segments: readonly string[], refusals: ConfinementRefusals): Promise<string> {
  let folder = root;
  for (const segment of segments) folder = await enterFolder(root, `${folder}${sep}${segment}`, refusals);
  return folder;
}

async function enterFolder(root: string, folder: string, refusals: ConfinementRefusals): Promise<string> {
  let stats = await lstat(folder).catch(() => undefined);
  if (!stats) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw refusals.failed(error);
    });
    stats = await lstat(folder).catch(reported(refusals));
  }
  if (stats.isSymbolicLink()) {
    const real = await realpath(folder).catch(reported(refusals));
    if (!isInside(root, real)) throw refusals.outside();
    return real;
  }
  if (!stats.isDirectory()) throw refusals.notFolder(folder);
  return folder;
}

/**
 * `name` opened in `folder` (a folder {@link enterFolders} reached) with `flags` and, when it is made, `mode`.
 * Where /proc shows descriptors, the folder is opened, its real path read back and refused when outside `root`,
 * and the file opened relative to that open folder (`/proc/self/fd/N/name`): a folder swapped for a link after
 * the walk cannot redirect the open. Elsewhere the file is opened by its path. Give `O_NOFOLLOW` in `flags` so a
 * link in the name itself is not followed (the open then fails with `ELOOP`, reported through `refusals.failed`).
 */
export async function openInFolder(root: string, folder: string, name: string, flags: number, mode: number, refusals: ConfinementRefusals): Promise<FileHandle> {
  if (!HAS_PROC_FD) return open(`${folder}${sep}${name}`, flags, mode).catch(reported(refusals));
  const directory = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY).catch(reported(refusals));
  try {
    if (!(await openedInside(directory, root))) throw refusals.outside();
    return await open(`/proc/self/fd/${directory.fd}/${name}`, flags, mode).catch(reported(refusals));
  } finally {
    await directory.close();
  }
}

/**
 * Whether what `handle` opened is inside the real `root`, read back from /proc (so a link or a swap that led
 * the open elsewhere is seen). Where /proc does not show descriptors, `true`: callers check the path before.
 */
export async function openedInside(handle: FileHandle, root: string): Promise<boolean> {
  return !HAS_PROC_FD || isInside(root, await readlink(`/proc/self/fd/${handle.fd}`));
}

/** A rejection handler that throws the caller's wording of a failed system call. */
function reported(refusals: ConfinementRefusals): (error: unknown) => never {
  return (error) => {
    throw refusals.failed(error);
  };
}

/**
 * The confined walk both ADK's environments and the built-in filesystem tools write through: folders made or
 * followed one at a time and refused when a link leads out, a file opened through its checked open folder, an
 * opened file checked by what its descriptor is. Each refusal goes through the caller's own wording.
 */
import { constants, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { enterFolders, HAS_PROC_FD, isInside, openedInside, openInFolder, type ConfinementRefusals } from "../../src/platform/confined-paths.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "toolsmith-confined-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let root: string;
let outsideFolder: string;
let caseNumber = 0;
beforeEach(() => {
  caseNumber += 1;
  root = join(scratch, `root-${caseNumber}`);
  outsideFolder = join(scratch, `outside-${caseNumber}`);
  mkdirSync(root);
  mkdirSync(outsideFolder);
});

/** Refusals that say which one was asked for, with what. */
const refusals: ConfinementRefusals = {
  outside: () => new Error("refused: outside"),
  notFolder: (folder) => new Error(`refused: not a folder: ${folder}`),
  failed: (error) => new Error(`failed: ${(error as NodeJS.ErrnoException).code}`),
};

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

describe("isInside", () => {
  it("takes the root itself and what is under it, not a sibling whose name starts the same", () => {
    expect(isInside("/srv/root", "/srv/root")).toBe(true);
    expect(isInside("/srv/root", "/srv/root/a/b")).toBe(true);
    expect(isInside("/srv/root", "/srv/rootkit/a")).toBe(false);
    expect(isInside("/srv/root", "/srv")).toBe(false);
  });
});

describe("enterFolders", () => {
  it("makes the missing folders one by one and returns the last", async () => {
    const folder = await enterFolders(root, ["a", "b", "c"], refusals);
    expect(folder).toBe(join(root, "a", "b", "c"));
    expect(existsSync(folder)).toBe(true);
  });

  it("returns the root for no segments", async () => {
    await expect(enterFolders(root, [], refusals)).resolves.toBe(root);
  });

  it("follows a link to a folder inside the root to its real path", async () => {
    mkdirSync(join(root, "real"));
    symlinkSync(join(root, "real"), join(root, "alias"));
    await expect(enterFolders(root, ["alias", "made"], refusals)).resolves.toBe(join(root, "real", "made"));
    expect(existsSync(join(root, "real", "made"))).toBe(true);
  });

  it("refuses a link out of the root with the caller's refusal and makes nothing beyond it", async () => {
    symlinkSync(outsideFolder, join(root, "out"));
    await expect(enterFolders(root, ["out", "made"], refusals)).rejects.toThrow("refused: outside");
    expect(existsSync(join(outsideFolder, "made"))).toBe(false);
  });

  it("refuses a file on the way, naming the folder it expected", async () => {
    writeFileSync(join(root, "file"), "x");
    await expect(enterFolders(root, ["file", "below"], refusals)).rejects.toThrow(`refused: not a folder: ${join(root, "file")}`);
  });

  it("reports a dangling link on the way as a failed call, in the caller's words", async () => {
    symlinkSync(join(root, "nowhere"), join(root, "dangling"));
    await expect(enterFolders(root, ["dangling", "below"], refusals)).rejects.toThrow("failed: ENOENT");
  });
});

describe("openInFolder", () => {
  it("creates the file in the folder with the mode given", async () => {
    const handle = await openInFolder(root, root, "new.txt", CREATE, 0o600, refusals);
    await handle.writeFile("hello");
    await handle.close();
    expect(readFileSync(join(root, "new.txt"), "utf8")).toBe("hello");
  });

  it("does not follow a link in the name when O_NOFOLLOW is given: the failure is the caller's ELOOP", async () => {
    writeFileSync(join(outsideFolder, "target"), "untouched");
    symlinkSync(join(outsideFolder, "target"), join(root, "link"));
    await expect(openInFolder(root, root, "link", constants.O_WRONLY | constants.O_NOFOLLOW, 0o644, refusals)).rejects.toThrow("failed: ELOOP");
    expect(readFileSync(join(outsideFolder, "target"), "utf8")).toBe("untouched");
  });

  it("reports an existing file under O_EXCL through the caller's wording", async () => {
    writeFileSync(join(root, "there"), "x");
    await expect(openInFolder(root, root, "there", CREATE, 0o644, refusals)).rejects.toThrow("failed: EEXIST");
  });

  it.runIf(HAS_PROC_FD)("refuses a folder swapped for a link out after the walk, and creates nothing outside", async () => {
    const folder = await enterFolders(root, ["work"], refusals);
    // The attacker's swap, between the walk and the open.
    renameSync(folder, join(root, "moved"));
    symlinkSync(outsideFolder, folder);
    await expect(openInFolder(root, folder, "planted", CREATE, 0o644, refusals)).rejects.toThrow("refused: outside");
    expect(existsSync(join(outsideFolder, "planted"))).toBe(false);
  });
});

describe("openedInside", () => {
  it("is true for a file opened inside the root", async () => {
    writeFileSync(join(root, "in"), "x");
    const handle = await open(join(root, "in"), "r");
    try {
      expect(await openedInside(handle, root)).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it.runIf(HAS_PROC_FD)("is false for a file reached through a link out, whatever its name says", async () => {
    writeFileSync(join(outsideFolder, "secret"), "x");
    symlinkSync(join(outsideFolder, "secret"), join(root, "looks-inside"));
    const handle = await open(join(root, "looks-inside"), "r");
    try {
      expect(await openedInside(handle, root)).toBe(false);
    } finally {
      await handle.close();
    }
  });
});

import { randomBytes } from "node:crypto";
import { link, mkdir, open, readdir, readFile, rename, rm, unlink } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Part } from "../../content/content.js";
import { artifactVersionOf, chosenVersion, decodeArtifact, encodeArtifact, type StoredArtifactMetadata } from "../artifact-encoding.js";
import type { ArtifactKey, ArtifactService, ArtifactVersion, ListArtifactsRequest, LoadArtifactRequest, SaveArtifactRequest } from "../artifact-service.js";
import { assertArtifactKey, InvalidArtifactNameError, isUserScopedArtifact } from "../artifact-name.js";
import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { describeGiven, refuseNonObjectOptions, refuseUnhonouredOptions } from "../../errors/unhonoured-option.js";

/** Options of {@link FileArtifactService}. */
export interface FileArtifactServiceOptions {
  /** The folder that holds every artifact; created when missing. */
  root: string;
}

/**
 * Artifacts as files: `<root>/<app>/<user>/sessions/<session>/<name>/<version>.bin`
 * with `<version>.json` (MIME type, custom metadata, save time) beside it, and `user:` names under
 * `<root>/<app>/<user>/user/`. Every path part is percent-encoded, so names
 * and ids never nest or climb; the resolved path is checked to stay under the
 * root all the same. Versions count from 0; a version is claimed with a hard
 * link, so two processes saving at once get different numbers.
 *
 * @example
 * ```ts
 * import { FileArtifactService } from "toolsmith/artifacts/file";
 * const artifactService = new FileArtifactService({ root: ".toolsmith/artifacts" });
 * ```
 */
export class FileArtifactService implements ArtifactService {
  readonly #root: string;

  /** Takes `{ root }`, or the folder's path or `file://` URL as ADK's `new FileArtifactService(rootDirOrUri)` does. */
  constructor(options: FileArtifactServiceOptions | string) {
    const root = rootOf(options);
    this.#root = resolve(root.startsWith("file://") ? fileURLToPath(root) : root);
  }

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const folder = this.#artifactFolder(request);
    const { bytes, metadata } = encodeArtifact(request);
    await mkdir(folder, { recursive: true });
    const scratch = join(folder, `.${randomBytes(8).toString("hex")}.tmp`);
    await writeDurably(scratch, bytes);
    await writeDurably(`${scratch}.json`, Buffer.from(JSON.stringify(metadata)));
    try {
      for (let version = nextVersion(await readdir(folder)); ; version++) {
        try {
          await link(scratch, join(folder, `${version}.bin`));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
          throw error;
        }
        // The metadata file is what makes a version visible, so it is put in place last.
        await rename(`${scratch}.json`, join(folder, `${version}.json`));
        return version;
      }
    } finally {
      await unlink(scratch).catch(() => undefined);
      await unlink(`${scratch}.json`).catch(() => undefined);
    }
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    const found = await this.#readMetadata(request);
    return found && decodeArtifact(await readFile(join(found.folder, `${found.version}.bin`)), found.metadata);
  }

  async getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined> {
    const found = await this.#readMetadata(request);
    return found && artifactVersionOf(found.version, found.metadata, pathToFileURL(join(found.folder, `${found.version}.bin`)).href);
  }

  async listArtifactVersions(request: ArtifactKey): Promise<ArtifactVersion[]> {
    const versions: ArtifactVersion[] = [];
    for (const version of await this.listVersions(request)) {
      const found = await this.getArtifactVersion({ ...request, version });
      if (found) versions.push(found);
    }
    return versions;
  }

  /** The metadata of the version asked for (the latest when none is), or `undefined` when it does not exist. */
  async #readMetadata(request: LoadArtifactRequest): Promise<{ folder: string; version: number; metadata: StoredArtifactMetadata } | undefined> {
    const folder = this.#artifactFolder(request);
    const version = chosenVersion(request.version, request.version === undefined ? await this.listVersions(request) : []);
    if (version === undefined) return undefined;
    try {
      return { folder, version, metadata: JSON.parse(await readFile(join(folder, `${version}.json`), "utf8")) as StoredArtifactMetadata };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  async listArtifactKeys(request: ListArtifactsRequest): Promise<string[]> {
    assertArtifactKey(request, { listing: true });
    const names: string[] = [];
    for (const scope of [this.#scopeFolder(request, "session"), this.#scopeFolder(request, "user")]) {
      for (const entry of await readdirOrEmpty(scope)) {
        if (DELETED.test(entry)) continue;
        if ((await readdirOrEmpty(join(scope, entry))).some((file) => VERSION_METADATA.test(file))) names.push(decodeURIComponent(entry));
      }
    }
    return names.sort();
  }

  async deleteArtifact(request: ArtifactKey): Promise<void> {
    const folder = this.#artifactFolder(request);
    // Renamed away first, so a reader never sees half the versions gone.
    const doomed = `${folder}.${randomBytes(8).toString("hex")}.deleted`;
    try {
      await rename(folder, doomed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    await rm(doomed, { recursive: true, force: true });
  }

  async listVersions(request: ArtifactKey): Promise<number[]> {
    const versions: number[] = [];
    for (const entry of await readdirOrEmpty(this.#artifactFolder(request))) {
      const match = VERSION_METADATA.exec(entry);
      if (match) versions.push(Number(match[1]));
    }
    return versions.sort((a, b) => a - b);
  }

  /** Nothing to release; here so every service can be closed the same way. */
  async close(): Promise<void> {}

  #scopeFolder(key: ListArtifactsRequest, scope: "session" | "user"): string {
    const parts = [key.appName, key.userId, ...(scope === "user" ? ["user"] : ["sessions", key.sessionId])];
    return this.#underRoot(parts.map((part) => encodePathPart(part, key)), key);
  }

  #artifactFolder(key: ArtifactKey): string {
    assertArtifactKey(key);
    const scope = this.#scopeFolder(key, isUserScopedArtifact(key.filename) ? "user" : "session");
    return this.#underRoot([scope, encodePathPart(key.filename, key)], key);
  }

  #underRoot(parts: string[], key: ListArtifactsRequest): string {
    const path = resolve(this.#root, ...parts);
    if (!path.startsWith(this.#root + sep)) throw new InvalidArtifactNameError(describe(key), "it resolves outside the artifact folder");
    return path;
  }
}

/** One path part, percent-encoded so `/`, `\` and `:` cannot nest or climb; `.` and `..` would still climb, so they are refused. */
function encodePathPart(part: string, key: ListArtifactsRequest): string {
  const encoded = encodeURIComponent(part);
  if (encoded === "" || encoded === "." || encoded === "..") throw new InvalidArtifactNameError(describe(key), `the app, user or session name ${JSON.stringify(part)} cannot be a folder name`);
  return encoded;
}

function describe(key: ListArtifactsRequest): string {
  return "filename" in key ? String((key as ArtifactKey).filename) : `${key.appName}/${key.userId}/${key.sessionId}`;
}

const VERSION_METADATA = /^(\d+)\.json$/;
const DELETED = /\.[0-9a-f]{16}\.deleted$/;

function nextVersion(entries: string[]): number {
  let next = 0;
  for (const entry of entries) {
    const match = /^(\d+)\.(json|bin)$/.exec(entry);
    if (match) next = Math.max(next, Number(match[1]) + 1);
  }
  return next;
}

async function writeDurably(path: string, bytes: Buffer): Promise<void> {
  const handle = await open(path, "wx");
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function readdirOrEmpty(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The folder of `{ root }`, refused when the options are not that (nothing, an unknown option, an empty root). */
function rootOf(options: unknown): string {
  let root = options;
  if (typeof options !== "string") {
    refuseNonObjectOptions("FileArtifactService", options, () => 'new FileArtifactService({ root: ".toolsmith/artifacts" }), or the folder\'s path alone');
    refuseUnhonouredOptions("FileArtifactService", options, ["root"]);
    root = options.root;
  }
  // An empty root would put artifacts in the working folder.
  if (typeof root !== "string" || root.trim() === "") {
    throw new ConfigurationError("UNSUPPORTED_OPTION", `FileArtifactService's root must be the artifacts folder's path or file:// URL; it got ${describeGiven(root)}.`);
  }
  return root;
}

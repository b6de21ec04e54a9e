import { randomBytes } from "node:crypto";
import { link, mkdir, open, readdir, readFile, rename, rm, unlink } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import type { Part } from "../../content/content.js";
import type { ArtifactKey, ArtifactService, ListArtifactsRequest, LoadArtifactRequest, SaveArtifactRequest } from "../artifact-service.js";
import { assertArtifactName, InvalidArtifactNameError, isUserScopedArtifact } from "../artifact-name.js";

/** Options of {@link FileArtifactService}. */
export interface FileArtifactServiceOptions {
  /** The folder that holds every artifact; created when missing. */
  root: string;
}

/** What is kept beside each version's bytes. */
interface VersionMetadata {
  /** How the part is rebuilt: `inlineData` (bytes + MIME type), `text`, or any other part kept as JSON. */
  kind: "inlineData" | "text" | "part";
  mimeType: string;
  displayName?: string;
}

/**
 * Artifacts as files: `<root>/<app>/<user>/sessions/<session>/<name>/<version>.bin`
 * with `<version>.json` (MIME type) beside it, and `user:` names under
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

  constructor(options: FileArtifactServiceOptions) {
    this.#root = resolve(options.root);
  }

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const folder = this.#artifactFolder(request);
    const { bytes, metadata } = encodePart(request.artifact);
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
    const folder = this.#artifactFolder(request);
    const version = request.version ?? (await this.listVersions(request)).at(-1);
    if (version === undefined || !Number.isInteger(version) || version < 0) return undefined;
    let metadata: VersionMetadata;
    try {
      metadata = JSON.parse(await readFile(join(folder, `${version}.json`), "utf8")) as VersionMetadata;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    return decodePart(await readFile(join(folder, `${version}.bin`)), metadata);
  }

  async listArtifactKeys(request: ListArtifactsRequest): Promise<string[]> {
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
    assertArtifactName(key.filename);
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

function encodePart(part: Part): { bytes: Buffer; metadata: VersionMetadata } {
  if (part.inlineData) {
    const metadata: VersionMetadata = { kind: "inlineData", mimeType: part.inlineData.mimeType ?? "application/octet-stream" };
    if (part.inlineData.displayName !== undefined) metadata.displayName = part.inlineData.displayName;
    return { bytes: Buffer.from(part.inlineData.data ?? "", "base64"), metadata };
  }
  if (typeof part.text === "string" && Object.keys(part).length === 1) return { bytes: Buffer.from(part.text, "utf8"), metadata: { kind: "text", mimeType: "text/plain" } };
  return { bytes: Buffer.from(JSON.stringify(part), "utf8"), metadata: { kind: "part", mimeType: "application/json" } };
}

function decodePart(bytes: Buffer, metadata: VersionMetadata): Part {
  if (metadata.kind === "text") return { text: bytes.toString("utf8") };
  if (metadata.kind === "part") return JSON.parse(bytes.toString("utf8")) as Part;
  const inlineData: NonNullable<Part["inlineData"]> = { mimeType: metadata.mimeType, data: bytes.toString("base64") };
  if (metadata.displayName !== undefined) inlineData.displayName = metadata.displayName;
  return { inlineData };
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

import type { Part } from "../content/content.js";
import type { ArtifactKey, ArtifactService, ArtifactVersion, ListArtifactsRequest, LoadArtifactRequest, SaveArtifactRequest } from "./artifact-service.js";
import { assertJsonValue } from "../sessions/json-value.js";
import { storedMimeType } from "./artifact-encoding.js";
import { assertArtifactKey, assertArtifactPart, isUserScopedArtifact } from "./artifact-name.js";

/** Keeps artifacts in this process's memory; nothing survives a restart. */
export class InMemoryArtifactService implements ArtifactService {
  readonly #versions = new Map<string, { part: Part; metadata: ArtifactVersion }[]>();

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    assertArtifactKey(request);
    assertArtifactPart(request.artifact);
    if (request.customMetadata !== undefined) assertJsonValue("customMetadata", request.customMetadata);
    const key = storageKey(request);
    let versions = this.#versions.get(key);
    if (!versions) this.#versions.set(key, (versions = []));
    const metadata: ArtifactVersion = { version: versions.length, mimeType: storedMimeType(request.artifact), createTime: Date.now() / 1000 };
    if (request.customMetadata !== undefined) metadata.customMetadata = structuredClone(request.customMetadata);
    versions.push({ part: structuredClone(request.artifact), metadata });
    return metadata.version;
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    assertArtifactKey(request);
    const stored = this.#version(request);
    return stored && structuredClone(stored.part);
  }

  async getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined> {
    assertArtifactKey(request);
    const stored = this.#version(request);
    return stored && structuredClone(stored.metadata);
  }

  async listArtifactVersions(request: ArtifactKey): Promise<ArtifactVersion[]> {
    assertArtifactKey(request);
    return (this.#versions.get(storageKey(request)) ?? []).map((stored) => structuredClone(stored.metadata));
  }

  #version(request: LoadArtifactRequest): { part: Part; metadata: ArtifactVersion } | undefined {
    const versions = this.#versions.get(storageKey(request));
    return versions?.[request.version ?? versions.length - 1];
  }

  async listArtifactKeys(request: ListArtifactsRequest): Promise<string[]> {
    assertArtifactKey(request, { listing: true });
    const names: string[] = [];
    for (const key of this.#versions.keys()) {
      const [appName, userId, sessionId, filename] = JSON.parse(key) as StorageKey;
      if (appName === request.appName && userId === request.userId && (sessionId === null || sessionId === request.sessionId)) names.push(filename);
    }
    return names.sort();
  }

  async deleteArtifact(request: ArtifactKey): Promise<void> {
    assertArtifactKey(request);
    this.#versions.delete(storageKey(request));
  }

  async listVersions(request: ArtifactKey): Promise<number[]> {
    assertArtifactKey(request);
    return (this.#versions.get(storageKey(request)) ?? []).map((_, index) => index);
  }

  /** Nothing to release; here so every service can be closed the same way. */
  async close(): Promise<void> {}
}

/** App, user, session (`null` for the user's shared `user:` artifacts) and name: kept apart whatever characters the ids hold. */
type StorageKey = [appName: string, userId: string, sessionId: string | null, filename: string];

function storageKey(key: ArtifactKey): string {
  const scoped: StorageKey = [key.appName, key.userId, isUserScopedArtifact(key.filename) ? null : key.sessionId, key.filename];
  return JSON.stringify(scoped);
}

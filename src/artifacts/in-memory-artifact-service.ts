import type { Part } from "../content/content.js";
import type { ArtifactKey, ArtifactService, ListArtifactsRequest, LoadArtifactRequest, SaveArtifactRequest } from "./artifact-service.js";
import { assertArtifactName, isUserScopedArtifact } from "./artifact-name.js";

/** Keeps artifacts in this process's memory; nothing survives a restart. */
export class InMemoryArtifactService implements ArtifactService {
  readonly #versions = new Map<string, Part[]>();

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    assertArtifactName(request.filename);
    const key = storageKey(request);
    let versions = this.#versions.get(key);
    if (!versions) this.#versions.set(key, (versions = []));
    versions.push(structuredClone(request.artifact));
    return versions.length - 1;
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    assertArtifactName(request.filename);
    const versions = this.#versions.get(storageKey(request));
    if (!versions) return undefined;
    const part = versions[request.version ?? versions.length - 1];
    return part && structuredClone(part);
  }

  async listArtifactKeys(request: ListArtifactsRequest): Promise<string[]> {
    const names: string[] = [];
    for (const key of this.#versions.keys()) {
      const [appName, userId, sessionId, filename] = JSON.parse(key) as StorageKey;
      if (appName === request.appName && userId === request.userId && (sessionId === null || sessionId === request.sessionId)) names.push(filename);
    }
    return names.sort();
  }

  async deleteArtifact(request: ArtifactKey): Promise<void> {
    assertArtifactName(request.filename);
    this.#versions.delete(storageKey(request));
  }

  async listVersions(request: ArtifactKey): Promise<number[]> {
    assertArtifactName(request.filename);
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

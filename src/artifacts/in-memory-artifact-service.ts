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
    const sessionPrefix = `${request.appName}/${request.userId}/${request.sessionId}/`;
    const userPrefix = `${request.appName}/${request.userId}/user/`;
    const names: string[] = [];
    for (const key of this.#versions.keys()) {
      if (key.startsWith(sessionPrefix)) names.push(key.slice(sessionPrefix.length));
      else if (key.startsWith(userPrefix)) names.push(key.slice(userPrefix.length));
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

function storageKey(key: ArtifactKey): string {
  const scope = isUserScopedArtifact(key.filename) ? "user" : key.sessionId;
  return `${key.appName}/${key.userId}/${scope}/${key.filename}`;
}

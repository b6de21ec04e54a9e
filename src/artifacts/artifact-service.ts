import type { Part } from "../content/content.js";

/** Names one artifact. Names starting with `user:` are shared by all of the user's sessions. */
export interface ArtifactKey {
  appName: string;
  userId: string;
  sessionId: string;
  filename: string;
}

/** Options of {@link ArtifactService.saveArtifact}. */
export interface SaveArtifactRequest extends ArtifactKey {
  /** An `inlineData` part (bytes and MIME type) or a `text` part. */
  artifact: Part;
}

/** Options of {@link ArtifactService.loadArtifact}. */
export interface LoadArtifactRequest extends ArtifactKey {
  /** The latest version when absent. */
  version?: number;
}

/** The artifacts of one session, including the user's shared ones. */
export interface ListArtifactsRequest {
  appName: string;
  userId: string;
  sessionId: string;
}

/**
 * Stores files that tools and agents produce or read, versioned from 0.
 * Implementations: in memory here; the filesystem behind its subpath.
 */
export interface ArtifactService {
  /** Stores a new version and returns its number. */
  saveArtifact(request: SaveArtifactRequest): Promise<number>;
  /** The artifact, or `undefined` when that name or version does not exist. */
  loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined>;
  /** Names of the session's artifacts and the user's shared ones, sorted. */
  listArtifactKeys(request: ListArtifactsRequest): Promise<string[]>;
  /** Removes every version. */
  deleteArtifact(request: ArtifactKey): Promise<void>;
  /** The stored version numbers, ascending. */
  listVersions(request: ArtifactKey): Promise<number[]>;
}

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
  /** Kept with this version and returned by {@link ArtifactService.getArtifactVersion}, as in ADK. Must be JSON. */
  customMetadata?: Record<string, unknown>;
}

/** What is known about one stored version without loading its bytes (ADK's `ArtifactVersion`). */
export interface ArtifactVersion {
  /** The version number, from 0. */
  version: number;
  /** The MIME type of the stored part: its `inlineData`'s, `text/plain` for text, `application/json` for any other part. */
  mimeType?: string;
  /** The metadata given to {@link ArtifactService.saveArtifact}, when there was some. */
  customMetadata?: Record<string, unknown>;
  /** Where the stored bytes live, for services that have such an address (`file://…`, `s3://…`). */
  canonicalUri?: string;
  /** When it was saved, in seconds since 1970 as session timestamps are. */
  createTime?: number;
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
 * Implementations: in memory here; the filesystem, PostgreSQL and S3 behind
 * their subpaths (`toolsmith/artifacts/file`, `toolsmith/postgres`,
 * `toolsmith/artifacts/s3`).
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
  /** Every version's metadata, ascending, without loading the bytes. */
  listArtifactVersions(request: ArtifactKey): Promise<ArtifactVersion[]>;
  /** One version's metadata (the latest when `version` is absent), or `undefined` when it does not exist. */
  getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined>;
}

import type { Part } from "../content/content.js";
import { assertJsonValue } from "../sessions/json-value.js";
import type { ArtifactVersion, SaveArtifactRequest } from "./artifact-service.js";
import { assertArtifactPart } from "./artifact-name.js";

/**
 * How the stored artifact services (file, PostgreSQL, S3) turn a part into
 * bytes and a small metadata record and back: one encoding, so an artifact
 * reads the same whichever store holds it.
 */

/** What is kept beside each version's bytes. */
export interface StoredArtifactMetadata {
  /** How the part is rebuilt: `inlineData` (bytes + MIME type), `text`, or any other part kept as JSON. */
  kind: "inlineData" | "text" | "part";
  mimeType: string;
  displayName?: string;
  customMetadata?: Record<string, unknown>;
  /** Seconds since 1970. Absent in versions stored before it was recorded. */
  createTime?: number;
}

/** The bytes to store and their metadata; throws `STATE_VALUE_NOT_JSON` (before anything is stored) when the custom metadata is not JSON. */
export function encodeArtifact(request: Pick<SaveArtifactRequest, "artifact" | "customMetadata">): { bytes: Buffer; metadata: StoredArtifactMetadata } {
  const { artifact: part, customMetadata } = request;
  assertArtifactPart(part);
  if (customMetadata !== undefined) assertJsonValue("customMetadata", customMetadata);
  const extra = { ...(customMetadata !== undefined ? { customMetadata } : {}), createTime: Date.now() / 1000 };
  if (part.inlineData) {
    const metadata: StoredArtifactMetadata = { kind: "inlineData", mimeType: storedMimeType(part), ...extra };
    if (part.inlineData.displayName !== undefined) metadata.displayName = part.inlineData.displayName;
    return { bytes: Buffer.from(part.inlineData.data ?? "", "base64"), metadata };
  }
  if (isTextPart(part)) return { bytes: Buffer.from(part.text, "utf8"), metadata: { kind: "text", mimeType: "text/plain", ...extra } };
  return { bytes: Buffer.from(JSON.stringify(part), "utf8"), metadata: { kind: "part", mimeType: "application/json", ...extra } };
}

/** The MIME type recorded for a part: its `inlineData`'s, `text/plain` for a text part, `application/json` for any other (kept as JSON). */
export function storedMimeType(part: Part): string {
  if (part.inlineData) return part.inlineData.mimeType ?? "application/octet-stream";
  return isTextPart(part) ? "text/plain" : "application/json";
}

function isTextPart(part: Part): part is Part & { text: string } {
  return typeof part.text === "string" && Object.keys(part).length === 1;
}

/** The part {@link encodeArtifact} was given. */
export function decodeArtifact(bytes: Buffer, metadata: StoredArtifactMetadata): Part {
  if (metadata.kind === "text") return { text: bytes.toString("utf8") };
  if (metadata.kind === "part") return JSON.parse(bytes.toString("utf8")) as Part;
  const inlineData: NonNullable<Part["inlineData"]> = { mimeType: metadata.mimeType, data: bytes.toString("base64") };
  if (metadata.displayName !== undefined) inlineData.displayName = metadata.displayName;
  return { inlineData };
}

/** The public view of one stored version. */
export function artifactVersionOf(version: number, metadata: StoredArtifactMetadata, canonicalUri?: string): ArtifactVersion {
  return {
    version,
    mimeType: metadata.mimeType,
    ...(metadata.customMetadata !== undefined ? { customMetadata: metadata.customMetadata } : {}),
    ...(canonicalUri !== undefined ? { canonicalUri } : {}),
    ...(metadata.createTime !== undefined ? { createTime: metadata.createTime } : {}),
  };
}

/** The version a request names: the given one, else the newest of `versions` (ascending); `undefined` when there is none or it is not a whole number. */
export function chosenVersion(requested: number | undefined, versions: readonly number[]): number | undefined {
  const version = requested ?? versions.at(-1);
  return version !== undefined && Number.isInteger(version) && version >= 0 ? version : undefined;
}

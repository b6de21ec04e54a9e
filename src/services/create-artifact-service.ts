import type { ArtifactService } from "../artifacts/artifact-service.js";
import { InMemoryArtifactService } from "../artifacts/in-memory-artifact-service.js";
import type { ClosableService } from "./create-session-service.js";
import { parseServiceUri } from "./service-uri.js";

/** Where the CLI and server keep artifacts unless told otherwise. */
export const DEFAULT_ARTIFACT_URI = "file://.toolsmith/artifacts";

/**
 * An artifact service chosen by URI: `memory://` or `file://<folder>`
 * (`file:///abs/folder` for an absolute one).
 *
 * @example
 * ```ts
 * const artifactService = await createArtifactService("file://.toolsmith/artifacts");
 * ```
 */
export async function createArtifactService(uri: string = DEFAULT_ARTIFACT_URI): Promise<ClosableService<ArtifactService>> {
  const { scheme, location } = parseServiceUri(uri, { service: "artifact", schemes: ["memory", "file"], example: DEFAULT_ARTIFACT_URI });
  if (scheme === "memory") return new InMemoryArtifactService();
  const { FileArtifactService } = await import("../artifacts/file/file-artifact-service.js");
  return new FileArtifactService({ root: location });
}

import type { ArtifactService } from "../artifacts/artifact-service.js";
import { InMemoryArtifactService } from "../artifacts/in-memory-artifact-service.js";
import type { ClosableService } from "./create-session-service.js";
import { importWithDriver, parseServiceUri } from "./service-uri.js";

/** Where the CLI and server keep artifacts unless told otherwise. */
export const DEFAULT_ARTIFACT_URI = "file://.toolsmith/artifacts";

/**
 * An artifact service chosen by URI: `memory://`, `file://<folder>`
 * (`file:///abs/folder` for an absolute one), `postgresql://…` (the same URI
 * the sessions use; needs `pg`) or `s3://<bucket>/<prefix>` (needs
 * `@aws-sdk/client-s3`; `?endpoint=…&region=…&forcePathStyle=true` for
 * S3-compatible servers). A driver is imported only when its scheme is used.
 *
 * @example
 * ```ts
 * const artifactService = await createArtifactService("file://.toolsmith/artifacts");
 * ```
 */
export async function createArtifactService(uri: string = DEFAULT_ARTIFACT_URI): Promise<ClosableService<ArtifactService>> {
  const { scheme, location } = parseServiceUri(uri, { service: "artifact", schemes: ["memory", "file", "postgres", "postgresql", "s3"], example: DEFAULT_ARTIFACT_URI });
  if (scheme === "memory") return new InMemoryArtifactService();
  if (scheme === "file") {
    const { FileArtifactService } = await import("../artifacts/file/file-artifact-service.js");
    return new FileArtifactService({ root: location });
  }
  if (scheme === "s3") {
    const { S3ArtifactService, s3OptionsFromUri } = await importWithDriver(() => import("../artifacts/s3/s3-artifact-service.js"), { packageName: "@aws-sdk/client-s3", scheme });
    return S3ArtifactService.open(s3OptionsFromUri(location));
  }
  const { PostgresArtifactService } = await importWithDriver(() => import("../postgres/postgres-artifact-service.js"), { packageName: "pg", scheme });
  return PostgresArtifactService.open({ connectionString: location });
}

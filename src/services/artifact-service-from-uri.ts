import type { Part } from "../content/content.js";
import { redactUriPassword } from "../errors/redact-uri.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import type { ArtifactKey, ArtifactService, ArtifactVersion, ListArtifactsRequest, LoadArtifactRequest, SaveArtifactRequest } from "../artifacts/artifact-service.js";
import { FileArtifactService } from "../artifacts/file/file-artifact-service.js";
import { InMemoryArtifactService } from "../artifacts/in-memory-artifact-service.js";
import { createArtifactService } from "./create-artifact-service.js";
import type { ClosableService } from "./create-session-service.js";
import { OpenedOnFirstUse } from "./opened-on-first-use.js";
import { parseServiceUri } from "./service-uri.js";

/**
 * ADK's `getArtifactServiceFromUri`, made without waiting: `memory://` gives an `InMemoryArtifactService`,
 * `file://<folder>` a `FileArtifactService` over that folder (as ADK's), and toolsmith's `s3://…` and
 * `postgresql://…` a service that opens its store on first use. `gs://` is refused, saying how to reach Google
 * Cloud Storage through its S3 API. The asynchronous `createArtifactService(uri)` opens the store before it returns.
 */
export function getArtifactServiceFromUri(uri: string): ClosableService<ArtifactService> {
  if (/^gs:\/\//i.test(uri)) {
    throw new ConfigurationError(
      "UNKNOWN_SERVICE_URI",
      `getArtifactServiceFromUri got ${JSON.stringify(redactUriPassword(uri))}: toolsmith has no Google Cloud Storage service. Reach the bucket through its S3 API: s3://<bucket>?endpoint=https://storage.googleapis.com, with HMAC keys as the AWS credentials.`,
    );
  }
  const { scheme, location } = parseServiceUri(uri, { service: "artifact", schemes: ["memory", "file", "postgres", "postgresql", "s3"], example: "file://artifacts" });
  if (scheme === "memory") return new InMemoryArtifactService();
  if (scheme === "file") return new FileArtifactService({ root: location });
  return new ArtifactServiceOpenedOnFirstUse(uri);
}

/** An S3 or PostgreSQL artifact store behind {@link getArtifactServiceFromUri}, opened by the first call that needs it. */
class ArtifactServiceOpenedOnFirstUse implements ClosableService<ArtifactService> {
  readonly #store: OpenedOnFirstUse<ClosableService<ArtifactService>>;

  constructor(uri: string) {
    this.#store = new OpenedOnFirstUse(() => createArtifactService(uri));
  }

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    return (await this.#store.get()).saveArtifact(request);
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    return (await this.#store.get()).loadArtifact(request);
  }

  async listArtifactKeys(request: ListArtifactsRequest): Promise<string[]> {
    return (await this.#store.get()).listArtifactKeys(request);
  }

  async deleteArtifact(request: ArtifactKey): Promise<void> {
    return (await this.#store.get()).deleteArtifact(request);
  }

  async listVersions(request: ArtifactKey): Promise<number[]> {
    return (await this.#store.get()).listVersions(request);
  }

  async listArtifactVersions(request: ArtifactKey): Promise<ArtifactVersion[]> {
    return (await this.#store.get()).listArtifactVersions(request);
  }

  async getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined> {
    return (await this.#store.get()).getArtifactVersion(request);
  }

  close(): Promise<void> {
    return this.#store.close();
  }
}

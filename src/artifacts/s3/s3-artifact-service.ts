import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import type { Part } from "../../content/content.js";
import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { StorageError } from "../../errors/storage-error.js";
import { refuseNonObjectOptions, refuseUnhonouredOptions } from "../../errors/unhonoured-option.js";
import { artifactVersionOf, chosenVersion, decodeArtifact, encodeArtifact, type StoredArtifactMetadata } from "../artifact-encoding.js";
import { assertArtifactKey, isUserScopedArtifact } from "../artifact-name.js";
import type { ArtifactKey, ArtifactService, ArtifactVersion, ListArtifactsRequest, LoadArtifactRequest, SaveArtifactRequest } from "../artifact-service.js";

/** Options of {@link S3ArtifactService.open}. */
export interface S3ArtifactServiceOptions {
  /** The bucket; it must exist. */
  bucket: string;
  /** Put every object under this key prefix (`"team-a/artifacts"`). Default none. */
  prefix?: string;
  /**
   * How to reach the store, as the AWS SDK takes it: `region`, `endpoint`,
   * `forcePathStyle: true` for S3-compatible servers (MinIO, Ceph, R2, s3rver),
   * `credentials`. What is not given comes from the SDK's standard sources
   * (`AWS_REGION`, `AWS_ENDPOINT_URL_S3`, `AWS_ACCESS_KEY_ID`, `~/.aws`, roles).
   */
  clientConfig?: S3ClientConfig;
  /** A client to use instead of one made from `clientConfig`; it is not destroyed by `close()`. */
  client?: S3Client;
}

/** The user-metadata header that holds a version's {@link StoredArtifactMetadata}. */
const METADATA_HEADER = "toolsmith-metadata";
/** S3 allows 2 KB of user metadata per object; this leaves room for the header name. */
const MAX_METADATA_BYTES = 1900;
/** How many taken version numbers a save steps over before giving up (each is another writer's save landing first). */
const MAX_VERSION_CLAIMS = 50;

/**
 * Artifacts in an S3 bucket or an S3-compatible object store, through the
 * official AWS SDK (`@aws-sdk/client-s3`, an optional peer). One object per
 * version at `<prefix>/<app>/<user>/sessions/<session>/<name>/<version>`
 * (`…/<user>/user/<name>/<version>` for `user:` names; every part
 * percent-encoded, so ids and names never nest), its content type the part's
 * MIME type and the rest of its metadata (display name, custom metadata, save
 * time) in one `x-amz-meta-toolsmith-metadata` header, so a version appears
 * whole or not at all. A version is claimed with a conditional write
 * (`If-None-Match: *`), so two servers saving the same name at once get
 * different versions on stores that honour it (AWS S3, MinIO, R2); saves in one
 * process are also queued per name. Create it with {@link S3ArtifactService.open}.
 *
 * @example
 * ```ts
 * import { S3ArtifactService } from "toolsmith/artifacts/s3";
 * const artifactService = await S3ArtifactService.open({ bucket: "my-artifacts", prefix: "prod", clientConfig: { region: "eu-west-1" } });
 * ```
 */
export class S3ArtifactService implements ArtifactService {
  readonly #client: S3Client;
  readonly #ownsClient: boolean;
  readonly #bucket: string;
  readonly #prefix: string;
  /** The save running for each name in this process, so that this process's own saves never race each other. */
  readonly #saving = new Map<string, Promise<unknown>>();

  private constructor(client: S3Client, ownsClient: boolean, bucket: string, prefix: string) {
    this.#client = client;
    this.#ownsClient = ownsClient;
    this.#bucket = bucket;
    this.#prefix = prefix;
  }

  /** Makes the client and checks that the bucket exists and answers, so a wrong bucket, endpoint or credential fails here rather than at the first save. */
  static async open(options: S3ArtifactServiceOptions): Promise<S3ArtifactService> {
    refuseNonObjectOptions("S3ArtifactService", options, (given) => (given?.startsWith("s3://") ? `S3ArtifactService.open({ bucket, prefix }), or createArtifactService(${JSON.stringify(given)})` : 'S3ArtifactService.open({ bucket: "my-artifacts" })'));
    refuseUnhonouredOptions("S3ArtifactService", options, ["bucket", "prefix", "clientConfig", "client"]);
    if (options.prefix !== undefined && typeof options.prefix !== "string") throw new ConfigurationError("UNSUPPORTED_OPTION", `S3ArtifactService's prefix is a key prefix such as "team-a/artifacts"; it got ${typeof options.prefix}.`);
    if (typeof options.bucket !== "string" || !options.bucket) throw new ConfigurationError("UNKNOWN_SERVICE_URI", "The S3 artifact service needs a bucket name: s3://<bucket>/<prefix>.");
    const client = options.client ?? new S3Client(options.clientConfig ?? {});
    const where = `s3://${options.bucket}${options.clientConfig?.endpoint ? ` at ${String(options.clientConfig.endpoint)}` : ""}`;
    try {
      await client.send(new HeadBucketCommand({ Bucket: options.bucket }));
    } catch (error) {
      if (!options.client) client.destroy();
      if (httpStatusOf(error) === 404) {
        throw new ConfigurationError("S3_BUCKET_NOT_FOUND", `The bucket of ${where} does not exist. Create it first (aws s3 mb s3://${options.bucket}), or fix the bucket name; nothing was stored.`, { cause: error });
      }
      throw new StorageError(
        "S3_UNREACHABLE",
        `Could not use ${where} (${describeS3Error(error)}). Check the endpoint, the region (AWS_REGION or ?region=) and the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile); nothing was stored.`,
        { cause: error },
      );
    }
    const prefix = (options.prefix ?? "").replace(/^\/+|\/+$/g, "");
    return new S3ArtifactService(client, !options.client, options.bucket, prefix ? `${prefix}/` : "");
  }

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const folder = this.#artifactFolder(request);
    const { bytes, metadata } = encodeArtifact(request);
    const header = Buffer.from(JSON.stringify(metadata)).toString("base64url");
    if (header.length > MAX_METADATA_BYTES) {
      throw new ConfigurationError("ARTIFACT_METADATA_TOO_LARGE", `The metadata of artifact ${JSON.stringify(request.filename)} takes ${header.length} bytes encoded; S3 keeps at most ${MAX_METADATA_BYTES} per object. Keep customMetadata small (put large data in the artifact itself); nothing was stored.`);
    }
    const previous = this.#saving.get(folder) ?? Promise.resolve();
    const saving = previous.catch(() => undefined).then(() => this.#claimNextVersion(folder, bytes, metadata.mimeType, header));
    this.#saving.set(folder, saving);
    try {
      return await saving;
    } finally {
      if (this.#saving.get(folder) === saving) this.#saving.delete(folder);
    }
  }

  async #claimNextVersion(folder: string, bytes: Buffer, mimeType: string, header: string): Promise<number> {
    let version = ((await this.#versionsIn(folder)).at(-1) ?? -1) + 1;
    for (let attempt = 0; attempt < MAX_VERSION_CLAIMS; attempt++, version++) {
      try {
        await this.#client.send(
          new PutObjectCommand({ Bucket: this.#bucket, Key: `${folder}${version}`, Body: bytes, ContentType: mimeType, Metadata: { [METADATA_HEADER]: header }, IfNoneMatch: "*" }),
        );
        return version;
      } catch (error) {
        // 412: another writer stored this version first; 409: another conditional write to it is still running.
        const status = httpStatusOf(error);
        if (status !== 412 && status !== 409) throw error;
      }
    }
    throw new StorageError("S3_UNREACHABLE", `Could not claim a version of ${folder} after ${MAX_VERSION_CLAIMS} tries: other writers took each one first. Nothing was stored; try again.`);
  }

  async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    const key = await this.#versionKey(request);
    if (!key) return undefined;
    try {
      const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }));
      const bytes = Buffer.from(await object.Body!.transformToByteArray());
      return decodeArtifact(bytes, metadataOf(object.Metadata, object.ContentType));
    } catch (error) {
      if (httpStatusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async getArtifactVersion(request: LoadArtifactRequest): Promise<ArtifactVersion | undefined> {
    const key = await this.#versionKey(request);
    if (!key) return undefined;
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return artifactVersionOf(Number(key.slice(key.lastIndexOf("/") + 1)), metadataOf(head.Metadata, head.ContentType), `s3://${this.#bucket}/${key}`);
    } catch (error) {
      if (httpStatusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async listArtifactVersions(request: ArtifactKey): Promise<ArtifactVersion[]> {
    const found = await Promise.all((await this.listVersions(request)).map((version) => this.getArtifactVersion({ ...request, version })));
    return found.filter((version): version is ArtifactVersion => version !== undefined);
  }

  async listArtifactKeys(request: ListArtifactsRequest): Promise<string[]> {
    assertArtifactKey(request, { listing: true });
    const names: string[] = [];
    for (const scope of [this.#scopeFolder(request, "session"), this.#scopeFolder(request, "user")]) {
      for (const folder of await this.#list(scope, "/", (page) => page.CommonPrefixes?.map((common) => common.Prefix!) ?? [])) {
        names.push(decodeURIComponent(folder.slice(scope.length, -1)));
      }
    }
    return names.sort();
  }

  async deleteArtifact(request: ArtifactKey): Promise<void> {
    const folder = this.#artifactFolder(request);
    for (const version of await this.#versionsIn(folder)) await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: `${folder}${version}` }));
  }

  async listVersions(request: ArtifactKey): Promise<number[]> {
    return this.#versionsIn(this.#artifactFolder(request));
  }

  /** Destroys the client's connections, when this service made the client. */
  async close(): Promise<void> {
    if (this.#ownsClient) this.#client.destroy();
  }

  async #versionsIn(folder: string): Promise<number[]> {
    const keys = await this.#list(folder, undefined, (page) => page.Contents?.map((object) => object.Key!) ?? []);
    const versions = keys.map((key) => key.slice(folder.length)).filter((rest) => /^(0|[1-9]\d*)$/.test(rest));
    return versions.map(Number).sort((a, b) => a - b);
  }

  /** Every page of a listing under `prefix`, each turned into strings by `pick`. */
  async #list(prefix: string, delimiter: string | undefined, pick: (page: { Contents?: { Key?: string }[]; CommonPrefixes?: { Prefix?: string }[] }) => string[]): Promise<string[]> {
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.#client.send(new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token }));
      found.push(...pick(page));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async #versionKey(request: LoadArtifactRequest): Promise<string | undefined> {
    const folder = this.#artifactFolder(request);
    const version = chosenVersion(request.version, request.version === undefined ? await this.#versionsIn(folder) : []);
    return version === undefined ? undefined : `${folder}${version}`;
  }

  #scopeFolder(key: ListArtifactsRequest, scope: "session" | "user"): string {
    const parts = [key.appName, key.userId, ...(scope === "user" ? ["user"] : ["sessions", key.sessionId])];
    return `${this.#prefix}${parts.map(encodeURIComponent).join("/")}/`;
  }

  #artifactFolder(key: ArtifactKey): string {
    assertArtifactKey(key);
    return `${this.#scopeFolder(key, isUserScopedArtifact(key.filename) ? "user" : "session")}${encodeURIComponent(key.filename)}/`;
  }
}

/**
 * Options for {@link S3ArtifactService.open} from `s3://<bucket>/<prefix>`,
 * with `?region=`, `?endpoint=` and `?forcePathStyle=true` for what the SDK's
 * standard sources do not say. Credentials never go in the URI.
 */
export function s3OptionsFromUri(uri: string): S3ArtifactServiceOptions {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ConfigurationError("UNKNOWN_SERVICE_URI", `${JSON.stringify(uri)} is not a valid URI. Write it as s3://<bucket>/<prefix>, for example s3://my-artifacts/prod.`);
  }
  if (!url.hostname) throw new ConfigurationError("UNKNOWN_SERVICE_URI", `${JSON.stringify(uri)} names no bucket. Write it as s3://<bucket>/<prefix>, for example s3://my-artifacts/prod.`);
  if (url.username || url.password) {
    throw new ConfigurationError("UNKNOWN_SERVICE_URI", "Put no credentials in an s3:// URI: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or use a profile or role) instead.");
  }
  const clientConfig: S3ClientConfig = {};
  for (const [name, value] of url.searchParams) {
    if (name === "region") clientConfig.region = value;
    else if (name === "endpoint") clientConfig.endpoint = value;
    else if (name === "forcePathStyle" && (value === "true" || value === "false")) clientConfig.forcePathStyle = value === "true";
    else {
      throw new ConfigurationError(
        "UNKNOWN_SERVICE_URI",
        `${JSON.stringify(uri)} has the option ${name}=${value}, which an s3:// URI does not take. Options: region=<name>, endpoint=<url>, forcePathStyle=true|false.`,
      );
    }
  }
  return { bucket: url.hostname, prefix: decodeURIComponent(url.pathname), clientConfig };
}

function metadataOf(headers: Record<string, string> | undefined, contentType: string | undefined): StoredArtifactMetadata {
  const header = headers?.[METADATA_HEADER];
  // An object put there by another tool: its bytes, with its content type.
  if (!header) return { kind: "inlineData", mimeType: contentType ?? "application/octet-stream" };
  return JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as StoredArtifactMetadata;
}

function httpStatusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function describeS3Error(error: unknown): string {
  const status = httpStatusOf(error);
  const name = (error as { name?: string }).name;
  const message = error instanceof Error && error.message && error.message !== "UnknownError" ? error.message : "";
  const code = (error as { code?: string }).code;
  return [status ? `HTTP ${status}` : "", name && name !== "Error" ? name : "", message, code && !message.includes(code) ? code : ""].filter(Boolean).join(": ") || String(error);
}

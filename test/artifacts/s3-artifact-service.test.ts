/**
 * S3ArtifactService against s3rver, a local S3-compatible server from npm
 * that this file starts, through the real AWS SDK: the shared conformance,
 * the URI form, what a user sees for a missing bucket, an unreachable
 * endpoint or a bad URI, and the conditional write that claims a version
 * (recorded from the SDK's own requests; s3rver ignores If-None-Match, so a
 * store that refuses a taken version is played by answering 412 in the SDK's
 * middleware, as AWS S3 answers).
 */
import { randomBytes } from "node:crypto";
import { S3Client, ListObjectsV2Command, GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifactService } from "../../src/index.js";
import { S3ArtifactService, s3OptionsFromUri } from "../../src/artifacts/s3/index.js";
import { describeArtifactServiceConformance } from "../support/artifact-service-conformance.js";
import { startLocalS3, type LocalS3 } from "../support/s3-server.js";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir();
const session = { appName: "app", userId: "u", sessionId: "s1" };
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3({ directory: dir, buckets: ["artifacts", "other"] });
});
afterAll(() => s3?.stop());

let prefixCounter = 0;
/** A service over a prefix no other test uses, so each starts from an empty store. */
const openFresh = () => S3ArtifactService.open({ bucket: "artifacts", prefix: `test-${++prefixCounter}`, clientConfig: s3.clientConfig });

describeArtifactServiceConformance("S3ArtifactService", openFresh);

describe("S3ArtifactService", () => {
  it("stores one object per version at a readable key, with the part's MIME type as its content type", async () => {
    const service = await S3ArtifactService.open({ bucket: "other", prefix: "/team/a/", clientConfig: s3.clientConfig });
    try {
      await service.saveArtifact({ ...session, filename: "reports/q1.csv", artifact: { inlineData: { mimeType: "text/csv", data: btoa("a,b\n1,2\n") } }, customMetadata: { rows: 1 } });
      await service.saveArtifact({ ...session, filename: "user:avatar.png", artifact: { inlineData: { mimeType: "image/png", data: btoa("png") } } });
      const client = new S3Client(s3.clientConfig);
      const listed = await client.send(new ListObjectsV2Command({ Bucket: "other", Prefix: "team/a/" }));
      expect(listed.Contents!.map((object) => object.Key).sort()).toEqual(["team/a/app/u/sessions/s1/reports%2Fq1.csv/0", "team/a/app/u/user/user%3Aavatar.png/0"]);
      const object = await client.send(new GetObjectCommand({ Bucket: "other", Key: "team/a/app/u/sessions/s1/reports%2Fq1.csv/0" }));
      expect(object.ContentType).toBe("text/csv");
      expect(await object.Body!.transformToString()).toBe("a,b\n1,2\n");
      client.destroy();
      expect(await service.getArtifactVersion({ ...session, filename: "reports/q1.csv" })).toMatchObject({
        version: 0,
        mimeType: "text/csv",
        customMetadata: { rows: 1 },
        canonicalUri: "s3://other/team/a/app/u/sessions/s1/reports%2Fq1.csv/0",
      });
    } finally {
      await service.close();
    }
  });

  it("gives back an 8 MiB binary byte for byte", async () => {
    const service = await openFresh();
    try {
      const bytes = randomBytes(8 * 1024 * 1024 + 3);
      const started = performance.now();
      await service.saveArtifact({ ...session, filename: "big.bin", artifact: { inlineData: { mimeType: "application/octet-stream", data: bytes.toString("base64") } } });
      const loaded = await service.loadArtifact({ ...session, filename: "big.bin" });
      expect(Buffer.from(loaded!.inlineData!.data!, "base64").equals(bytes)).toBe(true);
      console.log(`S3 (s3rver) artifact of 8 MiB saved and loaded in ${(performance.now() - started).toFixed(0)} ms`);
    } finally {
      await service.close();
    }
  });

  it("reads an object another tool put under an artifact's key as bytes of its content type", async () => {
    const service = await S3ArtifactService.open({ bucket: "other", prefix: "foreign", clientConfig: s3.clientConfig });
    const client = new S3Client(s3.clientConfig);
    try {
      await client.send(new PutObjectCommand({ Bucket: "other", Key: "foreign/app/u/sessions/s1/upload.txt/0", Body: "from elsewhere", ContentType: "text/plain" }));
      expect(await service.loadArtifact({ ...session, filename: "upload.txt" })).toEqual({ inlineData: { mimeType: "text/plain", data: btoa("from elsewhere") } });
    } finally {
      client.destroy();
      await service.close();
    }
  });

  it("claims each version with If-None-Match: *, and steps over versions another writer took first", async () => {
    const client = new S3Client(s3.clientConfig);
    const puts: { key: string; ifNoneMatch: string | undefined }[] = [];
    let refuse = 2;
    client.middlewareStack.add(
      (next) => async (args) => {
        const request = (args as { request: { method: string; path: string; headers: Record<string, string> } }).request;
        if (request.method !== "PUT") return next(args);
        puts.push({ key: decodeURIComponent(request.path), ifNoneMatch: request.headers["if-none-match"] });
        if (refuse-- > 0) {
          // What AWS S3 answers when the key already exists.
          throw Object.assign(new Error("At least one of the pre-conditions you specified did not hold"), { name: "PreconditionFailed", $metadata: { httpStatusCode: 412 } });
        }
        return next(args);
      },
      { step: "finalizeRequest", name: "recordPuts" },
    );
    const service = await S3ArtifactService.open({ bucket: "artifacts", prefix: "claims", client });
    try {
      expect(await service.saveArtifact({ ...session, filename: "n.txt", artifact: { text: "x" } })).toBe(2);
      expect(puts).toEqual([
        { key: "/artifacts/claims/app/u/sessions/s1/n.txt/0", ifNoneMatch: "*" },
        { key: "/artifacts/claims/app/u/sessions/s1/n.txt/1", ifNoneMatch: "*" },
        { key: "/artifacts/claims/app/u/sessions/s1/n.txt/2", ifNoneMatch: "*" },
      ]);
      expect(await service.listVersions({ ...session, filename: "n.txt" })).toEqual([2]);
    } finally {
      await service.close();
      client.destroy();
    }
  });

  it("refuses custom metadata too large for S3's 2 KB of object metadata, storing nothing", async () => {
    const service = await openFresh();
    try {
      const error = await service.saveArtifact({ ...session, filename: "x.txt", artifact: { text: "x" }, customMetadata: { notes: "n".repeat(3000) } }).catch((caught: unknown) => caught);
      expect((error as Error).message).toMatch(/^The metadata of artifact "x\.txt" takes \d+ bytes encoded; S3 keeps at most 1900 per object\. Keep customMetadata small \(put large data in the artifact itself\); nothing was stored\.$/);
      expect(await service.listArtifactKeys(session)).toEqual([]);
    } finally {
      await service.close();
    }
  });
});

describe("s3:// URIs", () => {
  it("read the bucket, the prefix and the endpoint, region and path-style options", () => {
    expect(s3OptionsFromUri("s3://my-bucket/team/prod?endpoint=http://127.0.0.1:9000&region=eu-west-1&forcePathStyle=true")).toEqual({
      bucket: "my-bucket",
      prefix: "/team/prod",
      clientConfig: { endpoint: "http://127.0.0.1:9000", region: "eu-west-1", forcePathStyle: true },
    });
    expect(s3OptionsFromUri("s3://plain")).toEqual({ bucket: "plain", prefix: "", clientConfig: {} });
  });

  it("refuse a missing bucket, credentials in the URI and unknown options, saying what to write", () => {
    expect(() => s3OptionsFromUri("s3:///prefix")).toThrow('"s3:///prefix" names no bucket. Write it as s3://<bucket>/<prefix>, for example s3://my-artifacts/prod.');
    expect(() => s3OptionsFromUri("s3://key:secret@bucket/x")).toThrow("Put no credentials in an s3:// URI: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or use a profile or role) instead.");
    expect(() => s3OptionsFromUri("s3://bucket?pathStyle=1")).toThrow('"s3://bucket?pathStyle=1" has the option pathStyle=1, which an s3:// URI does not take. Options: region=<name>, endpoint=<url>, forcePathStyle=true|false.');
  });

  it("open through createArtifactService with the SDK's credentials from the environment", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, s3.env);
    try {
      const service = await createArtifactService(`s3://artifacts/via-uri?endpoint=${s3.endpoint}&forcePathStyle=true`);
      await service.saveArtifact({ ...session, filename: "a.txt", artifact: { text: "via the URI" } });
      expect(await service.loadArtifact({ ...session, filename: "a.txt" })).toEqual({ text: "via the URI" });
      await service.close();
    } finally {
      process.env = saved;
    }
  });

  it("fail at open with what to do when the bucket does not exist or the endpoint does not answer", async () => {
    const missing = await S3ArtifactService.open({ bucket: "no-such-bucket", clientConfig: s3.clientConfig }).catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ code: "S3_BUCKET_NOT_FOUND" });
    expect((missing as Error).message).toBe(
      `The bucket of s3://no-such-bucket at ${s3.endpoint} does not exist. Create it first (aws s3 mb s3://no-such-bucket), or fix the bucket name; nothing was stored.`,
    );
    const unreachable = await S3ArtifactService.open({ bucket: "artifacts", clientConfig: { ...s3.clientConfig, endpoint: "http://127.0.0.1:1", maxAttempts: 1 } }).catch((caught: unknown) => caught);
    expect(unreachable).toMatchObject({ code: "S3_UNREACHABLE" });
    expect((unreachable as Error).message).toMatch(
      /^Could not use s3:\/\/artifacts at http:\/\/127\.0\.0\.1:1 \(.*ECONNREFUSED.*\)\. Check the endpoint, the region \(AWS_REGION or \?region=\) and the credentials \(AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile\); nothing was stored\.$/,
    );
  });
});

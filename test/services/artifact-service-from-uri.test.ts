/**
 * ADK's `getArtifactServiceFromUri(uri)` on toolsmith, side by side with `@google/adk` 2.0's for the URIs both
 * have (`memory://`, `file://`), and for toolsmith's own (`postgresql://`, `s3://`) a service that opens its store
 * on first use.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import * as adk from "@google/adk";
import { afterEach, describe, expect, it } from "vitest";
import { getArtifactServiceFromUri, InMemoryArtifactService, ToolsmithError } from "../../src/index.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { tempDir } from "../support/temp-dir.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";

const services: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
});

const newFolder = () => tempDir("toolsmith-services-from-uri-");

const key = { appName: "shop", userId: "ann", sessionId: "s1" };
const note = { inlineData: { mimeType: "text/plain", data: Buffer.from("buy beans").toString("base64") } };

/** The calls an ADK program makes of the service it got, on either framework's. */
interface SavesArtifacts {
  saveArtifact(request: typeof key & { filename: string; artifact: typeof note }): Promise<number>;
  loadArtifact(request: typeof key & { filename: string; version?: number }): Promise<unknown>;
  listArtifactKeys(request: typeof key): Promise<string[]>;
}

async function saveTwiceAndRead(service: SavesArtifacts) {
  const versions = [await service.saveArtifact({ ...key, filename: "note.txt", artifact: note }), await service.saveArtifact({ ...key, filename: "note.txt", artifact: note })];
  return { versions, loaded: await service.loadArtifact({ ...key, filename: "note.txt", version: 1 }), keys: await service.listArtifactKeys(key) };
}

describe("getArtifactServiceFromUri, side by side with @google/adk 2.0", () => {
  it("gives an in-memory service for memory:// and a folder's for file://, keeping and reading artifacts as ADK's do", async () => {
    expect(getArtifactServiceFromUri("memory://")).toBeInstanceOf(InMemoryArtifactService);
    expect(adk.getArtifactServiceFromUri("memory://")).toBeInstanceOf(adk.InMemoryArtifactService);
    const [adkFolder, toolsmithFolder] = [newFolder(), newFolder()];
    const toolsmith = getArtifactServiceFromUri(`file://${toolsmithFolder}`);
    expect(toolsmith).toBeInstanceOf(FileArtifactService);
    const fromAdk = await saveTwiceAndRead(adk.getArtifactServiceFromUri(`file://${adkFolder}`) as unknown as SavesArtifacts);
    const fromToolsmith = await saveTwiceAndRead(toolsmith as unknown as SavesArtifacts);
    expect(fromToolsmith).toEqual(fromAdk);
    expect(fromToolsmith).toEqual({ versions: [0, 1], loaded: note, keys: ["note.txt"] });
    // Each wrote into the folder it was given (laid out its own way).
    expect([readdirSync(adkFolder).length, readdirSync(toolsmithFolder).length]).toEqual([1, 1]);
  });

  it("refuses a scheme it does not know, as ADK's does, saying which there are", () => {
    expect(() => adk.getArtifactServiceFromUri("ftp://files")).toThrow("Unsupported artifact service URI");
    expect(() => getArtifactServiceFromUri("ftp://files")).toThrow(
      '"ftp://files" does not name an artifact service. Use one of: memory://, file://, postgres://, postgresql://, s3:// (for example file://artifacts).',
    );
  });
});

describe("getArtifactServiceFromUri", () => {
  it("refuses gs://, saying how to reach Google Cloud Storage, where ADK makes its GCS service", () => {
    let thrown: unknown;
    try {
      getArtifactServiceFromUri("gs://my-bucket");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolsmithError);
    expect(thrown).toMatchObject({ code: "UNKNOWN_SERVICE_URI", message: expect.stringContaining("Reach the bucket through its S3 API: s3://<bucket>?endpoint=https://storage.googleapis.com") });
  });

  it.skipIf(!postgresUrl)(`opens a PostgreSQL store on its first call, without waiting to be made ${postgresMissing}`, async () => {
    const service = getArtifactServiceFromUri(await freshDatabase());
    services.push(service);
    expect(await saveTwiceAndRead(service as unknown as SavesArtifacts)).toEqual({ versions: [0, 1], loaded: note, keys: ["note.txt"] });
    expect(await service.listVersions({ ...key, filename: "note.txt" })).toEqual([0, 1]);
    expect((await service.getArtifactVersion({ ...key, filename: "note.txt" }))?.version).toBe(1);
    await service.deleteArtifact({ ...key, filename: "note.txt" });
    expect(await service.listArtifactVersions({ ...key, filename: "note.txt" })).toEqual([]);
  });

  it("fails each call, not the making, while the store does not answer, saying what to check", async () => {
    // A port nothing listens on.
    const service = getArtifactServiceFromUri("postgresql://toolsmith@127.0.0.1:9/none?connect_timeout=2");
    services.push(service);
    const first = await service.listArtifactKeys(key).then(() => undefined, (error: unknown) => error as Error);
    const second = await service.listArtifactKeys(key).then(() => undefined, (error: unknown) => error as Error);
    console.log(`the first call to an unreachable store: ${first?.message}`);
    expect(first?.message).toMatch(/127\.0\.0\.1/);
    expect(first).toBeInstanceOf(ToolsmithError);
    expect(first?.message).toContain("Check that the server is running and the URL is right; nothing was stored.");
    expect(second?.message).toBe(first?.message);
  });
});

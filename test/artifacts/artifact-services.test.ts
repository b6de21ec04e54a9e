import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InMemoryArtifactService, InvalidArtifactNameError, type ArtifactService, type Part } from "../../src/index.js";
import { assertArtifactName, isUserScopedArtifact } from "../../src/artifacts/artifact-name.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { tempDir } from "../support/temp-dir.js";
import { PostgresArtifactService } from "../../src/postgres/index.js";
import { freshDatabase, postgresUrl } from "../support/postgres.js";
import { S3ArtifactService } from "../../src/artifacts/s3/index.js";
import { startLocalS3, type LocalS3 } from "../support/s3-server.js";

const dir = tempDir();
let rootCounter = 0;
const newRoot = () => join(dir, `root-${++rootCounter}`);
const session = { appName: "app", userId: "u", sessionId: "s1" };

const services: [string, () => Promise<ArtifactService>][] = [
  ["InMemoryArtifactService", async () => new InMemoryArtifactService()],
  ["FileArtifactService", async () => new FileArtifactService({ root: newRoot() })],
];
// A fresh database per test, with 4-byte chunks so that every artifact spans several; closed after the file.
const opened: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(opened.map((service) => service.close())));
// s3rver, a local S3-compatible server, with a fresh prefix per test.
let s3: LocalS3 | undefined;
afterAll(() => s3?.stop());
let s3Prefix = 0;
services.push(["S3ArtifactService", async () => {
  s3 ??= await startLocalS3({ directory: dir, buckets: ["artifacts"] });
  const service = await S3ArtifactService.open({ bucket: "artifacts", prefix: `p${++s3Prefix}`, clientConfig: s3.clientConfig });
  opened.push(service);
  return service;
}]);
if (postgresUrl) {
  services.push(["PostgresArtifactService", async () => {
    const service = await PostgresArtifactService.open({ connectionString: await freshDatabase(), chunkBytes: 4 });
    opened.push(service);
    return service;
  }]);
}

describe("artifact names", () => {
  it.each(["report.pdf", "user:profile.png", "reports/2024/q1.csv", "user:docs/cv.md", "a..b.txt", ".hidden", "with space.txt", "ünïcødé.txt"])("accepts %s", (name) => {
    expect(() => assertArtifactName(name)).not.toThrow();
  });

  it.each([
    ["", "it is empty"],
    ["a\0b", "it contains a NUL byte"],
    ["/abs", "it is an absolute path"],
    ["\\abs", "it is an absolute path"],
    ["D:report", "it is an absolute path"],
    ["user:", 'it has an empty, "." or ".." path segment'],
    ["dir/", 'it has an empty, "." or ".." path segment'],
    ["./x", 'it has an empty, "." or ".." path segment'],
    ["a\\..\\b", 'it has an empty, "." or ".." path segment'],
  ])("refuses %j because %s", (name, reason) => {
    expect(() => assertArtifactName(name)).toThrow(InvalidArtifactNameError);
    expect(() => assertArtifactName(name)).toThrow(`is not allowed: ${reason}.`);
  });

  it("scopes names that start with user: to the user", () => {
    expect(isUserScopedArtifact("user:x")).toBe(true);
    expect(isUserScopedArtifact("users.txt")).toBe(false);
    expect(isUserScopedArtifact("x/user:y")).toBe(false);
  });
});

describe.each(services)("%s", (_name, open) => {
  it("keeps what it stored apart from the caller's objects, both ways", async () => {
    const service = await open();
    const artifact: Part = { inlineData: { mimeType: "text/plain", data: Buffer.from("original").toString("base64") } };
    await service.saveArtifact({ ...session, filename: "f.txt", artifact });
    artifact.inlineData!.data = Buffer.from("changed").toString("base64");
    const loaded = (await service.loadArtifact({ ...session, filename: "f.txt" }))!;
    expect(Buffer.from(loaded.inlineData!.data!, "base64").toString()).toBe("original");
    loaded.inlineData!.mimeType = "image/png";
    expect((await service.loadArtifact({ ...session, filename: "f.txt" }))!.inlineData!.mimeType).toBe("text/plain");
  });

  it("keeps a display name and a part that is neither text nor bytes", async () => {
    const service = await open();
    const named: Part = { inlineData: { mimeType: "application/pdf", data: Buffer.from("%PDF").toString("base64"), displayName: "Q1 report" } };
    const link: Part = { fileData: { mimeType: "video/mp4", fileUri: "gs://bucket/clip.mp4" } };
    await service.saveArtifact({ ...session, filename: "report.pdf", artifact: named });
    await service.saveArtifact({ ...session, filename: "clip", artifact: link });
    expect(await service.loadArtifact({ ...session, filename: "report.pdf" })).toEqual(named);
    expect(await service.loadArtifact({ ...session, filename: "clip" })).toEqual(link);
  });

  it("keeps the same name in two sessions as two artifacts, each versioned from 0", async () => {
    const service = await open();
    expect(await service.saveArtifact({ ...session, filename: "n.txt", artifact: { text: "s1" } })).toBe(0);
    expect(await service.saveArtifact({ ...session, sessionId: "s2", filename: "n.txt", artifact: { text: "s2" } })).toBe(0);
    expect(await service.loadArtifact({ ...session, filename: "n.txt" })).toEqual({ text: "s1" });
    expect(await service.loadArtifact({ ...session, sessionId: "s2", filename: "n.txt" })).toEqual({ text: "s2" });
  });

  it("versions a user: artifact across sessions, and deletes it for all of them", async () => {
    const service = await open();
    expect(await service.saveArtifact({ ...session, filename: "user:prefs.json", artifact: { text: "{}" } })).toBe(0);
    expect(await service.saveArtifact({ ...session, sessionId: "s2", filename: "user:prefs.json", artifact: { text: '{"a":1}' } })).toBe(1);
    expect(await service.listVersions({ ...session, sessionId: "s3", filename: "user:prefs.json" })).toEqual([0, 1]);
    await service.deleteArtifact({ ...session, sessionId: "s3", filename: "user:prefs.json" });
    expect(await service.listArtifactKeys(session)).toEqual([]);
    expect(await service.listArtifactKeys({ ...session, userId: "other" })).toEqual([]);
  });

  it("keeps other users and apps out of a listing", async () => {
    const service = await open();
    await service.saveArtifact({ ...session, filename: "mine.txt", artifact: { text: "m" } });
    await service.saveArtifact({ ...session, userId: "u2", filename: "theirs.txt", artifact: { text: "t" } });
    await service.saveArtifact({ ...session, appName: "other", filename: "elsewhere.txt", artifact: { text: "e" } });
    await service.saveArtifact({ ...session, userId: "u2", filename: "user:theirs.txt", artifact: { text: "t" } });
    expect(await service.listArtifactKeys(session)).toEqual(["mine.txt"]);
    expect(await service.loadArtifact({ ...session, filename: "theirs.txt" })).toBeUndefined();
  });

  it("keeps a session whose id is \"user\" to itself", async () => {
    const service = await open();
    await service.saveArtifact({ ...session, sessionId: "user", filename: "private.txt", artifact: { text: "p" } });
    expect(await service.listArtifactKeys({ ...session, sessionId: "user" })).toEqual(["private.txt"]);
    expect(await service.listArtifactKeys(session)).toEqual([]);
  });

  it("keeps ids that contain / apart: app a/b, user c is not app a, user b/c", async () => {
    const service = await open();
    await service.saveArtifact({ appName: "a/b", userId: "c", sessionId: "s", filename: "x.txt", artifact: { text: "a/b's" } });
    expect(await service.listArtifactKeys({ appName: "a", userId: "b", sessionId: "c/s" })).toEqual([]);
    expect(await service.loadArtifact({ appName: "a", userId: "b", sessionId: "c/s", filename: "x.txt" })).toBeUndefined();
    expect(await service.loadArtifact({ appName: "a/b", userId: "c", sessionId: "s", filename: "x.txt" })).toEqual({ text: "a/b's" });
  });

  it("loses nothing when a bad name is refused", async () => {
    const service = await open();
    await service.saveArtifact({ ...session, filename: "kept.txt", artifact: { text: "v0" } });
    for (const filename of ["../kept.txt", "/kept.txt", "user:../x"]) {
      await expect(service.saveArtifact({ ...session, filename, artifact: { text: "bad" } })).rejects.toBeInstanceOf(InvalidArtifactNameError);
      await expect(service.deleteArtifact({ ...session, filename })).rejects.toBeInstanceOf(InvalidArtifactNameError);
      await expect(service.listVersions({ ...session, filename })).rejects.toBeInstanceOf(InvalidArtifactNameError);
    }
    expect(await service.listArtifactKeys(session)).toEqual(["kept.txt"]);
    expect(await service.listVersions({ ...session, filename: "kept.txt" })).toEqual([0]);
  });

  it("finds no version for a number that is not a whole number from 0, or too large to store", async () => {
    const service = await open();
    await service.saveArtifact({ ...session, filename: "v.txt", artifact: { text: "v0" } });
    for (const version of [-1, 0.5, Number.NaN, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      expect(await service.loadArtifact({ ...session, filename: "v.txt", version })).toBeUndefined();
      expect(await service.getArtifactVersion({ ...session, filename: "v.txt", version })).toBeUndefined();
    }
  });

  it("hands out distinct versions to saves that run at once", async () => {
    const service = await open();
    const versions = await Promise.all(Array.from({ length: 8 }, (_, index) => service.saveArtifact({ ...session, filename: "busy.txt", artifact: { text: `v${index}` } })));
    expect([...versions].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const [index, version] of versions.entries()) expect(await service.loadArtifact({ ...session, filename: "busy.txt", version })).toEqual({ text: `v${index}` });
  });
});

describe("FileArtifactService on disk", () => {
  it("finds what an earlier instance saved under the same root", async () => {
    const root = newRoot();
    await new FileArtifactService({ root }).saveArtifact({ ...session, filename: "kept.txt", artifact: { text: "still here" } });
    const reopened = new FileArtifactService({ root });
    expect(await reopened.loadArtifact({ ...session, filename: "kept.txt" })).toEqual({ text: "still here" });
    expect(await reopened.listArtifactKeys(session)).toEqual(["kept.txt"]);
  });

  it("keeps text as plain UTF-8 bytes beside its metadata", async () => {
    const root = newRoot();
    await new FileArtifactService({ root }).saveArtifact({ ...session, filename: "note.txt", artifact: { text: "héllo" } });
    const folder = join(root, "app", "u", "sessions", "s1", "note.txt");
    expect(readdirSync(folder).sort()).toEqual(["0.bin", "0.json"]);
  });

  it("ignores a version whose save never finished (bytes without metadata), and numbers past it", async () => {
    const root = newRoot();
    const service = new FileArtifactService({ root });
    await service.saveArtifact({ ...session, filename: "doc.txt", artifact: { text: "v0" } });
    const folder = join(root, "app", "u", "sessions", "s1", "doc.txt");
    writeFileSync(join(folder, "1.bin"), "half written");
    expect(await service.listVersions({ ...session, filename: "doc.txt" })).toEqual([0]);
    expect(await service.loadArtifact({ ...session, filename: "doc.txt" })).toEqual({ text: "v0" });
    expect(await service.loadArtifact({ ...session, filename: "doc.txt", version: 1 })).toBeUndefined();
    expect(await service.saveArtifact({ ...session, filename: "doc.txt", artifact: { text: "v2" } })).toBe(2);
  });

  it("lists no name for a folder without a finished version, nor for one being deleted", async () => {
    const root = newRoot();
    const service = new FileArtifactService({ root });
    const sessionFolder = join(root, "app", "u", "sessions", "s1");
    mkdirSync(join(sessionFolder, "crashed.txt"), { recursive: true });
    writeFileSync(join(sessionFolder, "crashed.txt", ".0123456789abcdef.tmp"), "x");
    mkdirSync(join(sessionFolder, "old.txt.0123456789abcdef.deleted"));
    writeFileSync(join(sessionFolder, "old.txt.0123456789abcdef.deleted", "0.json"), "{}");
    expect(await service.listArtifactKeys(session)).toEqual([]);
  });

});

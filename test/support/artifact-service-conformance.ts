import { describe, expect, it } from "vitest";
import { InvalidArtifactNameError, type ArtifactService } from "../../src/index.js";
import { expectRequestRefusals } from "./refusal.js";

/** Opens a service over empty storage; closed after each test. */
export type OpenArtifactService = () => Promise<ArtifactService & { close(): Promise<void> }>;

/** The behaviour every artifact service shares, run against each implementation. */
export function describeArtifactServiceConformance(name: string, open: OpenArtifactService): void {
  describe(`${name} (artifact service conformance)`, () => {
    const session = { appName: "app", userId: "u", sessionId: "s1" };
    async function withService(test: (service: ArtifactService) => Promise<void>) {
      const service = await open();
      try {
        await test(service);
      } finally {
        await service.close();
      }
    }

    it("refuses requests it cannot read with the error a user sees, and keeps what is stored (a file store kept a missing id as a folder named undefined)", () =>
      withService(async (service) => {
        await service.saveArtifact({ ...session, filename: "notes.txt", artifact: { text: "kept" } });
        const cases: [string, unknown, string][] = [
          ["saveArtifact", { ...session, filename: "notes.txt", artifact: "plain text" }, 'An artifact is a part: { text: "…" }, or { inlineData: { mimeType: "image/png", data: "<base64>" } }; it got "plain text" (save a text as { text: "…" }).'],
          ["saveArtifact", { ...session, filename: "notes.txt" }, 'An artifact is a part: { text: "…" }, or { inlineData: { mimeType: "image/png", data: "<base64>" } }; it got nothing.'],
          ["saveArtifact", { appName: "app", sessionId: "s1", filename: "notes.txt", artifact: { text: "x" } }, "An artifact request needs userId as a non-empty string; it got nothing."],
          ["saveArtifact", { appName: "app", userId: "u", filename: "notes.txt", artifact: { text: "x" } }, 'An artifact request needs sessionId as a non-empty string (or a "user:" name, shared by the user\'s sessions); it got nothing.'],
          ["loadArtifact", { ...session }, 'An artifact request needs filename, the artifact\'s name ("report.pdf", or "user:profile.png" for one the user\'s sessions share); it got nothing.'],
          ["loadArtifact", undefined, 'An artifact request is an object: { appName, userId, sessionId, filename: "report.pdf" }; it got nothing.'],
          ["listArtifactKeys", { appName: "app", userId: 5, sessionId: "s1" }, "An artifact request needs userId as a non-empty string; it got 5."],
          ["listArtifactKeys", { appName: "app", userId: "u" }, "An artifact request needs sessionId as a non-empty string; it got nothing."],
          ["listVersions", { ...session, filename: 7 }, 'An artifact request needs filename, the artifact\'s name ("report.pdf", or "user:profile.png" for one the user\'s sessions share); it got 7.'],
          ["deleteArtifact", { appName: "app", userId: "", sessionId: "s1", filename: "notes.txt" }, "An artifact request needs userId as a non-empty string; it got an empty string."],
        ];
        await expectRequestRefusals(service, cases);
        // A user: artifact needs no session.
        expect(await service.saveArtifact({ appName: "app", userId: "u", filename: "user:profile.txt", artifact: { text: "me" } } as never)).toBe(0);
        expect(await service.loadArtifact({ ...session, filename: "notes.txt" })).toEqual({ text: "kept" });
        expect(await service.listArtifactKeys(session)).toEqual(["notes.txt", "user:profile.txt"]);
      }));

    it("numbers versions from 0 and loads the latest or a given one", () =>
      withService(async (service) => {
        expect(await service.saveArtifact({ ...session, filename: "notes.txt", artifact: { text: "first" } })).toBe(0);
        expect(await service.saveArtifact({ ...session, filename: "notes.txt", artifact: { text: "second" } })).toBe(1);
        expect(await service.loadArtifact({ ...session, filename: "notes.txt" })).toEqual({ text: "second" });
        expect(await service.loadArtifact({ ...session, filename: "notes.txt", version: 0 })).toEqual({ text: "first" });
        expect(await service.loadArtifact({ ...session, filename: "notes.txt", version: 7 })).toBeUndefined();
        expect(await service.loadArtifact({ ...session, filename: "missing.txt" })).toBeUndefined();
        expect(await service.listVersions({ ...session, filename: "notes.txt" })).toEqual([0, 1]);
        expect(await service.listVersions({ ...session, filename: "missing.txt" })).toEqual([]);
      }));

    it("keeps bytes and MIME type of inline data", () =>
      withService(async (service) => {
        const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 13]).toString("base64");
        await service.saveArtifact({ ...session, filename: "image.png", artifact: { inlineData: { mimeType: "image/png", data: bytes } } });
        expect(await service.loadArtifact({ ...session, filename: "image.png" })).toEqual({ inlineData: { mimeType: "image/png", data: bytes } });
      }));

    it("shares user: artifacts across the user's sessions only", () =>
      withService(async (service) => {
        await service.saveArtifact({ ...session, filename: "user:profile.json", artifact: { inlineData: { mimeType: "application/json", data: btoa("{}") } } });
        await service.saveArtifact({ ...session, filename: "draft.md", artifact: { text: "# draft" } });
        await service.saveArtifact({ ...session, filename: "a/b.txt", artifact: { text: "nested name" } });
        const otherSession = { ...session, sessionId: "s2" };
        expect(await service.listArtifactKeys(session)).toEqual(["a/b.txt", "draft.md", "user:profile.json"]);
        expect(await service.listArtifactKeys(otherSession)).toEqual(["user:profile.json"]);
        expect(await service.loadArtifact({ ...otherSession, filename: "user:profile.json" })).toMatchObject({ inlineData: { mimeType: "application/json" } });
        expect(await service.saveArtifact({ ...otherSession, filename: "user:profile.json", artifact: { text: "{}" } })).toBe(1);
        expect(await service.listArtifactKeys({ ...session, userId: "someone-else" })).toEqual([]);
        expect(await service.loadArtifact({ ...session, filename: "a/b.txt" })).toEqual({ text: "nested name" });
      }));

    it("deletes every version of an artifact", () =>
      withService(async (service) => {
        await service.saveArtifact({ ...session, filename: "gone.txt", artifact: { text: "0" } });
        await service.saveArtifact({ ...session, filename: "gone.txt", artifact: { text: "1" } });
        await service.saveArtifact({ ...session, filename: "kept.txt", artifact: { text: "k" } });
        await service.deleteArtifact({ ...session, filename: "gone.txt" });
        await service.deleteArtifact({ ...session, filename: "never-saved.txt" });
        expect(await service.listArtifactKeys(session)).toEqual(["kept.txt"]);
        expect(await service.loadArtifact({ ...session, filename: "gone.txt" })).toBeUndefined();
        expect(await service.saveArtifact({ ...session, filename: "gone.txt", artifact: { text: "again" } })).toBe(0);
      }));

    it("keeps each version's MIME type and custom metadata, readable without the bytes, as ADK's getArtifactVersion and listArtifactVersions", () =>
      withService(async (service) => {
        const before = Date.now() / 1000 - 1;
        const customMetadata = { source: "camera", tags: ["a", "b"], nested: { exposure: 0.5 } };
        await service.saveArtifact({ ...session, filename: "photo.jpg", artifact: { inlineData: { mimeType: "image/jpeg", data: btoa("jpeg") } }, customMetadata });
        await service.saveArtifact({ ...session, filename: "photo.jpg", artifact: { text: "caption" } });
        const latest = await service.getArtifactVersion({ ...session, filename: "photo.jpg" });
        expect(latest).toMatchObject({ version: 1, mimeType: "text/plain" });
        expect(latest).not.toHaveProperty("customMetadata");
        const first = (await service.getArtifactVersion({ ...session, filename: "photo.jpg", version: 0 }))!;
        expect(first).toMatchObject({ version: 0, mimeType: "image/jpeg", customMetadata });
        expect(first.createTime).toBeGreaterThan(before);
        expect((await service.listArtifactVersions({ ...session, filename: "photo.jpg" })).map((version) => [version.version, version.mimeType])).toEqual([
          [0, "image/jpeg"],
          [1, "text/plain"],
        ]);
        expect(await service.getArtifactVersion({ ...session, filename: "photo.jpg", version: 9 })).toBeUndefined();
        expect(await service.getArtifactVersion({ ...session, filename: "missing.jpg" })).toBeUndefined();
        expect(await service.listArtifactVersions({ ...session, filename: "missing.jpg" })).toEqual([]);
      }));

    it("refuses custom metadata that is not JSON, storing nothing", () =>
      withService(async (service) => {
        const error = await service
          .saveArtifact({ ...session, filename: "x.txt", artifact: { text: "x" }, customMetadata: { when: new Date(0) } })
          .catch((caught: unknown) => caught);
        expect(String((error as Error).message)).toContain('State key "customMetadata" cannot be stored: .when is a Date, not a plain object');
        expect(await service.listArtifactKeys(session)).toEqual([]);
      }));

    it("rejects names with .. or an absolute path, and __proto__, and stores nothing", () =>
      withService(async (service) => {
        for (const filename of ["../escape.txt", "a/../../escape.txt", "/etc/passwd", "user:../escape", "user:/etc/passwd", "C:\\windows", "..\\x", "", "a//b", "__proto__"]) {
          const error = await service.saveArtifact({ ...session, filename, artifact: { text: "x" } }).catch((caught) => caught);
          expect(error, filename).toBeInstanceOf(InvalidArtifactNameError);
          expect(error.message).toMatch(/is not allowed/);
          await expect(service.loadArtifact({ ...session, filename })).rejects.toBeInstanceOf(InvalidArtifactNameError);
        }
        // Saved, it vanished from the event: an event's artifactDelta is keyed by the name, and "__proto__" set the record's prototype.
        const error = await service.saveArtifact({ ...session, filename: "__proto__", artifact: { text: "x" } }).catch((caught: unknown) => caught);
        expect((error as Error).message).toBe('Artifact name "__proto__" is not allowed: it is the one name an event\'s artifactDelta cannot record. Use a relative name such as "report.pdf" or "user:profile.png", without "..", leading "/" or "\\".');
        expect(await service.listArtifactKeys(session)).toEqual([]);
      }));
  });
}

import { describe, expect, it } from "vitest";
import { FunctionTool, LlmAgent } from "../../src/index.js";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, textResponse } from "../../src/testing/index.js";
import { inlineApi } from "./inline-api.js";

const agent = () => new LlmAgent({ name: "files", model: new FunctionModel(() => textResponse("ok")) });
const BASE = "/apps/files/users/u1/sessions";

async function withArtifacts() {
  const api = await inlineApi({ files: agent() });
  await api.call(`${BASE}/s1`, { json: {} });
  await api.call(`${BASE}/s2`, { json: {} });
  const save = (sessionId: string, filename: string, text: string) =>
    api.services.artifactService.saveArtifact({ appName: "files", userId: "u1", sessionId, filename, artifact: { text } });
  return { ...api, save };
}

describe("artifact routes", () => {
  it("loads a version chosen by ?version=, and the latest without it", async () => {
    const { json, save } = await withArtifacts();
    await save("s1", "notes.txt", "v0");
    await save("s1", "notes.txt", "v1");
    await save("s1", "notes.txt", "v2");
    expect((await json(`${BASE}/s1/artifacts/notes.txt`)).body).toEqual({ text: "v2" });
    expect((await json(`${BASE}/s1/artifacts/notes.txt?version=1`)).body).toEqual({ text: "v1" });
    expect((await json(`${BASE}/s1/artifacts/notes.txt?version=0`)).body).toEqual({ text: "v0" });
    expect((await json(`${BASE}/s1/artifacts/notes.txt?version=`)).body).toEqual({ text: "v2" });
    expect((await json(`${BASE}/s1/artifacts/notes.txt/versions/2`)).body).toEqual({ text: "v2" });
  });

  it.each(["-1", "1.5", "latest"])("refuses version %s with 400 INVALID_VERSION", async (version) => {
    const { json, save } = await withArtifacts();
    await save("s1", "notes.txt", "v0");
    for (const path of [`${BASE}/s1/artifacts/notes.txt?version=${version}`, `${BASE}/s1/artifacts/notes.txt/versions/${version}`]) {
      const response = await json(path);
      expect(response.status, path).toBe(400);
      expect(response.body).toEqual({ code: "INVALID_VERSION", error: "An artifact version is a whole number from 0." });
    }
  });

  it("names the missing artifact and version in its 404", async () => {
    const { json, save } = await withArtifacts();
    await save("s1", "notes.txt", "v0");
    expect((await json(`${BASE}/s1/artifacts/other.txt`)).body).toEqual({ code: "ARTIFACT_NOT_FOUND", error: 'Artifact "other.txt" not found.' });
    const version = await json(`${BASE}/s1/artifacts/notes.txt/versions/3`);
    expect(version.status).toBe(404);
    expect(version.body).toEqual({ code: "ARTIFACT_NOT_FOUND", error: 'Artifact "notes.txt" version 3 not found.' });
  });

  it("lists no versions for an artifact never saved", async () => {
    const { json } = await withArtifacts();
    const response = await json(`${BASE}/s1/artifacts/never.txt/versions`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it("keeps a session's artifacts to it, and lists the user's user: artifacts in each session", async () => {
    const { json, save } = await withArtifacts();
    await save("s1", "only-s1.txt", "a");
    await save("s2", "only-s2.txt", "b");
    await save("s1", "user:profile.txt", "shared");
    expect((await json(`${BASE}/s1/artifacts`)).body).toEqual(["only-s1.txt", "user:profile.txt"]);
    expect((await json(`${BASE}/s2/artifacts`)).body).toEqual(["only-s2.txt", "user:profile.txt"]);
    expect((await json(`${BASE}/s2/artifacts/user:profile.txt`)).body).toEqual({ text: "shared" });
    expect((await json(`${BASE}/s2/artifacts/only-s1.txt`)).status).toBe(404);
  });

  it("refuses a name that climbs out of the session with 400 INVALID_ARTIFACT_NAME", async () => {
    const { json, save } = await withArtifacts();
    await save("s1", "kept.txt", "k");
    for (const encoded of ["..%2Fs2%2Fkept.txt", "%2Fetc%2Fpasswd", "user:..%2Fx"]) {
      const response = await json(`${BASE}/s1/artifacts/${encoded}`);
      expect(response.status, encoded).toBe(400);
      expect(response.body.code).toBe("INVALID_ARTIFACT_NAME");
      expect((await json(`${BASE}/s1/artifacts/${encoded}`, { method: "DELETE" })).status, encoded).toBe(400);
    }
    expect((await json(`${BASE}/s1/artifacts`)).body).toEqual(["kept.txt"]);
  });

  it("deletes every version of one artifact and answers 204 for a name never saved", async () => {
    const { json, call, save } = await withArtifacts();
    await save("s1", "gone.txt", "0");
    await save("s1", "gone.txt", "1");
    await save("s1", "kept.txt", "k");
    expect((await call(`${BASE}/s1/artifacts/gone.txt`, { method: "DELETE" })).status).toBe(204);
    expect((await json(`${BASE}/s1/artifacts/gone.txt/versions`)).body).toEqual([]);
    expect((await json(`${BASE}/s1/artifacts`)).body).toEqual(["kept.txt"]);
    expect((await call(`${BASE}/s1/artifacts/never.txt`, { method: "DELETE" })).status).toBe(204);
  });

  it("answers 404 for the artifacts of a session that does not exist, even when the store holds some", async () => {
    const { json, services } = await withArtifacts();
    await services.artifactService.saveArtifact({ appName: "files", userId: "u1", sessionId: "ghost", filename: "left.txt", artifact: { text: "x" } });
    for (const path of [`${BASE}/ghost/artifacts`, `${BASE}/ghost/artifacts/left.txt`, `${BASE}/ghost/artifacts/left.txt/versions`]) {
      const response = await json(path);
      expect(response.status, path).toBe(404);
      expect(response.body.code).toBe("SESSION_NOT_FOUND");
    }
    expect((await json(`${BASE}/ghost/artifacts/left.txt`, { method: "DELETE" })).status).toBe(404);
    expect(await services.artifactService.listVersions({ appName: "files", userId: "u1", sessionId: "ghost", filename: "left.txt" })).toEqual([0]);
  });

  it("serves an artifact a tool saved during a run, at the version the event names", async () => {
    const tool = new FunctionTool({
      name: "write_report",
      description: "Writes a report.",
      execute: async (_args, context) => ({ version: await context.saveArtifact("report.md", { inlineData: { mimeType: "text/markdown", data: Buffer.from("# Report").toString("base64") } }) }),
    });
    const model = new FunctionModel((request) => (lastFunctionResponse(request) ? textResponse("written") : functionCallsResponse({ name: "write_report", args: {} })));
    const { json, call } = await inlineApi({ files: new LlmAgent({ name: "files", model, tools: [tool] }) });
    await call(`${BASE}/s1`, { json: {} });
    const run = async () => (await json("/run", { json: { appName: "files", userId: "u1", sessionId: "s1", newMessage: { parts: [{ text: "go" }] } } })).body as any[];
    await run();
    const second = await run();
    expect(second[1].actions.artifactDelta).toEqual({ "report.md": 1 });
    const artifact = (await json(`${BASE}/s1/artifacts/report.md/versions/1`)).body;
    expect(artifact.inlineData.mimeType).toBe("text/markdown");
    expect(Buffer.from(artifact.inlineData.data, "base64").toString()).toBe("# Report");
  });
});

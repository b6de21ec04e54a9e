import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { geminiBackend, vertexAiConfigured, vertexAiFromEnvironment } from "../../src/models/gemini/gemini-backend.js";
import { modelRequirements } from "../../src/server/model-requirements.js";
import { LlmAgent } from "../../src/index.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { json, startProviderServer, type ProviderServer } from "./support/provider-server.js";

const run = promisify(execFile);
const repositoryRoot = new URL("../../", import.meta.url).pathname;

/**
 * Gemini on Vertex AI, as ADK reaches it: `new Gemini({ vertexai, project, location })` or the environment
 * (`GOOGLE_GENAI_USE_ENTERPRISE`, or the older `GOOGLE_GENAI_USE_VERTEXAI`, with `GOOGLE_CLOUD_PROJECT` and
 * `GOOGLE_CLOUD_LOCATION`). End to end, the official SDK and Google's auth library run unchanged: the token comes
 * from a local stand-in for Google Cloud's metadata server, and the request goes to a local server speaking
 * Vertex AI's generateContent.
 */

describe("which Gemini backend the options and the environment give", () => {
  it("takes the Gemini API with a key by default, reading ADK's GOOGLE_GENAI_API_KEY too", () => {
    expect(geminiBackend({ apiKey: "k" }, {})).toEqual({ vertexai: false, apiKey: "k" });
    expect(geminiBackend({}, { GOOGLE_GENAI_API_KEY: "from-adk-name" })).toEqual({ vertexai: false, apiKey: "from-adk-name" });
    expect(geminiBackend({}, { GEMINI_API_KEY: "gemini", GOOGLE_GENAI_API_KEY: "later" })).toEqual({ vertexai: false, apiKey: "gemini" });
  });

  it("takes Vertex AI when asked, by option or environment, GOOGLE_GENAI_USE_ENTERPRISE over the older GOOGLE_GENAI_USE_VERTEXAI", () => {
    expect(geminiBackend({ vertexai: true, project: "p", location: "l" }, {})).toEqual({ vertexai: true, project: "p", location: "l" });
    const environment = { GOOGLE_CLOUD_PROJECT: "env-p", GOOGLE_CLOUD_LOCATION: "env-l" };
    expect(geminiBackend({}, { ...environment, GOOGLE_GENAI_USE_ENTERPRISE: "true" })).toEqual({ vertexai: true, project: "env-p", location: "env-l" });
    expect(geminiBackend({}, { ...environment, GOOGLE_GENAI_USE_VERTEXAI: "1" })).toEqual({ vertexai: true, project: "env-p", location: "env-l" });
    expect(vertexAiFromEnvironment({ GOOGLE_GENAI_USE_ENTERPRISE: "false", GOOGLE_GENAI_USE_VERTEXAI: "true" })).toBe(false);
    // An option wins over the environment, both ways.
    expect(geminiBackend({ vertexai: false, apiKey: "k" }, { ...environment, GOOGLE_GENAI_USE_ENTERPRISE: "true" })).toEqual({ vertexai: false, apiKey: "k" });
    expect(geminiBackend({ vertexai: true, project: "opt-p" }, environment)).toEqual({ vertexai: true, project: "opt-p", location: "env-l" });
  });

  it("refuses Vertex AI without a project or a location, and a project without Vertex AI, saying what to set", () => {
    const refusal = (options: Parameters<typeof geminiBackend>[0], environment: NodeJS.ProcessEnv) => {
      try {
        geminiBackend(options, environment);
        return "accepted";
      } catch (error) {
        return `${(error as { code?: string }).code}: ${(error as Error).message}`;
      }
    };
    expect(refusal({ vertexai: true }, {})).toBe("VERTEX_AI_NOT_CONFIGURED: Vertex AI needs a Google Cloud project: pass project to the model's options, or set GOOGLE_CLOUD_PROJECT.");
    expect(refusal({}, { GOOGLE_GENAI_USE_ENTERPRISE: "true", GOOGLE_CLOUD_PROJECT: "p" })).toBe("VERTEX_AI_NOT_CONFIGURED: Vertex AI needs a location: pass location to the model's options (us-central1, global, …), or set GOOGLE_CLOUD_LOCATION.");
    expect(refusal({ project: "p", apiKey: "k" }, {})).toBe("VERTEX_AI_NOT_CONFIGURED: A project and a location are Vertex AI settings: add vertexai: true (or set GOOGLE_GENAI_USE_ENTERPRISE=true) to use Vertex AI, or leave them out for the Gemini API.");
    expect(refusal({}, {})).toBe("MISSING_API_KEY: No API key for Gemini. Set the environment variable GOOGLE_API_KEY or GEMINI_API_KEY or GOOGLE_GENAI_API_KEY, or pass apiKey to the model's options.");
  });

  it("counts a Gemini model as ready for the server when the environment sets Vertex AI up, with no key", () => {
    const agent = new LlmAgent({ name: "assistant", model: "gemini-2.5-flash" });
    const ready = (environment: NodeJS.ProcessEnv) => modelRequirements({ app: "app", root: agent, environment }).models.map((requirement) => requirement.ready);
    expect(ready({})).toEqual([false]);
    expect(ready({ GOOGLE_GENAI_USE_ENTERPRISE: "true", GOOGLE_CLOUD_PROJECT: "p" })).toEqual([false]);
    expect(ready({ GOOGLE_GENAI_USE_ENTERPRISE: "true", GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "us-central1" })).toEqual([true]);
    expect(vertexAiConfigured({ GOOGLE_GENAI_USE_VERTEXAI: "TRUE", GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "global" })).toBe(true);
  });
});

describe("a run on Vertex AI through the official SDK and Google's auth library", () => {
  let provider: ProviderServer;
  let metadata: { url: string; tokenRequests: number; close(): Promise<void> };
  beforeEach(async () => {
    provider = await startProviderServer();
    metadata = await startMetadataServer();
  });
  afterEach(async () => {
    await provider.close();
    await metadata.close();
  });

  /** A generateContent answer shaped as Vertex AI's reference documents it (modelVersion, createTime, responseId). */
  const vertexAnswer = (text: string) => (_request: unknown, response: Parameters<typeof json>[0]) =>
    json(response, 200, {
      candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", avgLogprobs: -0.05 }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 4, totalTokenCount: 13, trafficType: "ON_DEMAND" },
      modelVersion: "gemini-2.5-flash",
      createTime: "2026-11-28T10:00:00.000000Z",
      responseId: "vertex-response-1",
    });

  /** Runs the worker with the environment a Google Cloud machine would have, pointed at the local servers. */
  async function turn(mode: "options" | "environment", extra: NodeJS.ProcessEnv = {}, framework: "adk" | "toolsmith" = "toolsmith") {
    const environment: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: mkdtempSync(join(tmpdir(), "toolsmith-vertex-home-")),
      // No gcloud credentials file: the auth library goes to the metadata server, as on Google Cloud.
      CLOUDSDK_CONFIG: mkdtempSync(join(tmpdir(), "toolsmith-vertex-gcloud-")),
      GCE_METADATA_HOST: metadata.url.replace("http://", ""),
      METADATA_SERVER_DETECTION: "assume-present",
      // Read by @google/genai itself on Vertex AI.
      GOOGLE_VERTEX_BASE_URL: provider.url,
      ...extra,
    };
    const { stdout } = await run(process.execPath, [...SOURCE_NODE_FLAGS, join(repositoryRoot, "test/models/workers/vertex-turn.ts"), JSON.stringify({ mode, framework })], { cwd: repositoryRoot, env: environment, timeout: 60_000 });
    return JSON.parse(stdout.trim().split("\n").at(-1)!) as { texts?: string[]; code?: string; message?: string };
  }

  it("sends ADK's new Gemini({ vertexai, project, location, headers }) to the project's Vertex AI endpoint with a Google Cloud token", async () => {
    provider.enqueue(vertexAnswer("Hello from Vertex AI."));
    expect(await turn("options")).toEqual({ texts: ["Hello from Vertex AI."] });
    const [request] = provider.requests;
    expect(request!.url).toBe("/v1beta1/projects/shop-prod/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent");
    expect(request!.headers.authorization).toBe("Bearer ya29.local-metadata-token");
    expect(request!.headers["x-team"]).toBe("support");
    expect(request!.headers["x-goog-api-key"]).toBeUndefined();
    expect(request!.body.contents).toEqual([{ role: "user", parts: [{ text: "Hello?" }] }]);
    expect(request!.body.systemInstruction.parts[0].text).toContain("Answer briefly.");
    expect(metadata.tokenRequests).toBe(1);
  });

  it("reaches Vertex AI from the environment alone, with a model given by name, as an ADK program configured for Vertex does", async () => {
    provider.enqueue(vertexAnswer("Configured by the environment."));
    const answer = await turn("environment", { GOOGLE_GENAI_USE_VERTEXAI: "TRUE", GOOGLE_CLOUD_PROJECT: "shop-staging", GOOGLE_CLOUD_LOCATION: "europe-west4", GOOGLE_API_KEY: "ignored-on-vertex" });
    expect(answer).toEqual({ texts: ["Configured by the environment."] });
    expect(provider.requests[0]!.url).toBe("/v1beta1/projects/shop-staging/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent");
    expect(provider.requests[0]!.headers.authorization).toBe("Bearer ya29.local-metadata-token");
  });

  it("sends what @google/adk sends for the same program, both ways of choosing Vertex AI (measured side by side)", async () => {
    const environment = { GOOGLE_GENAI_USE_VERTEXAI: "true", GOOGLE_CLOUD_PROJECT: "shop-staging", GOOGLE_CLOUD_LOCATION: "europe-west4" };
    const seen: Array<{ framework: string; mode: string; texts: unknown; url: string; authorization: unknown; team: unknown; contents: unknown }> = [];
    for (const framework of ["adk", "toolsmith"] as const) {
      for (const mode of ["options", "environment"] as const) {
        provider.enqueue(vertexAnswer(`answer for ${mode}`));
        const answer = await turn(mode, mode === "environment" ? environment : {}, framework);
        const request = provider.requests.at(-1)!;
        seen.push({ framework, mode, texts: answer.texts, url: request.url, authorization: request.headers.authorization, team: request.headers["x-team"], contents: request.body.contents });
      }
    }
    const of = (framework: string) => seen.filter((entry) => entry.framework === framework).map(({ framework: _framework, ...rest }) => rest);
    expect(of("toolsmith")).toEqual(of("adk"));
    expect(of("adk").map((entry) => entry.url)).toEqual([
      "/v1beta1/projects/shop-prod/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
      "/v1beta1/projects/shop-staging/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent",
    ]);
  });

  it("ends the run with VERTEX_AI_NOT_CONFIGURED, sending nothing, when Vertex AI is asked for without a location", async () => {
    const answer = await turn("environment", { GOOGLE_GENAI_USE_ENTERPRISE: "true", GOOGLE_CLOUD_PROJECT: "shop-staging" });
    expect(answer.texts).toEqual(["error VERTEX_AI_NOT_CONFIGURED: Vertex AI needs a location: pass location to the model's options (us-central1, global, …), or set GOOGLE_CLOUD_LOCATION."]);
    expect(provider.requests).toHaveLength(0);
  });
});

/** A stand-in for Google Cloud's metadata server: the default service account's access token, as GCE serves it. */
async function startMetadataServer() {
  let tokenRequests = 0;
  const server = createServer((request, response) => {
    if (request.headers["metadata-flavor"] !== "Google") {
      response.writeHead(403).end();
      return;
    }
    const headers = { "content-type": "application/json", "metadata-flavor": "Google" };
    if (request.url?.startsWith("/computeMetadata/v1/instance/service-accounts/default/token")) {
      tokenRequests++;
      response.writeHead(200, headers).end(JSON.stringify({ access_token: "ya29.local-metadata-token", expires_in: 3599, token_type: "Bearer" }));
      return;
    }
    response.writeHead(404, headers).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get tokenRequests() {
      return tokenRequests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

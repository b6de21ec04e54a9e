import { afterEach, describe, expect, it, vi } from "vitest";
import { MODEL_CREDENTIAL_VARIABLES } from "../../src/server/model-credentials.js";
import { cli } from "./cli-harness.js";

/** Starts `toolsmith <command> <dir>` on a free port and stops it at once, keeping what it printed. */
const serveOnce = (command: string, agentsDir: string) => cli([command, agentsDir, "--port", "0"], [], { interrupt: AbortSignal.abort() });

describe("toolsmith web and api-server: the startup note about model keys", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("names the variables an app's model needs while they are unset, and only for that app", async () => {
    for (const name of MODEL_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    const { code, stdout, stderr } = await serveOnce("web", "test/fixtures/model-apps");
    expect(code).toBe(0);
    expect(stdout).toContain("serving 2 app(s): gemini_app, scripted_app");
    expect(stderr).toBe("note: gemini_app needs GOOGLE_API_KEY or GEMINI_API_KEY or GOOGLE_GENAI_API_KEY (or, for Vertex AI, GOOGLE_GENAI_USE_ENTERPRISE=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION) for gemini-2.5-flash: set one and restart toolsmith.\n");
  });

  it("prints no note once the key is set", async () => {
    for (const name of MODEL_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    vi.stubEnv("GEMINI_API_KEY", "dummy-key");
    expect((await serveOnce("api-server", "test/fixtures/model-apps")).stderr).toBe("");
  });

  it("prints no note for the examples, which run without keys", async () => {
    for (const name of MODEL_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    const { code, stderr } = await serveOnce("web", "examples");
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });
});

/**
 * openServices with the credential service: where credentials go when no URI
 * is given (beside the sessions only with a key), that an explicit URI wins,
 * that credentials last across a reopen (a restart), and that a service that
 * cannot open closes those that did, so the process can exit with the error.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InMemoryCredentialService, State } from "../../src/index.js";
import { openServices } from "../../src/server/open-services.js";
import { SqliteCredentialService } from "../../src/sqlite/index.js";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir();
const scope = { appName: "app", userId: "alice", state: new State({}, {}) };
let savedKey: string | undefined;
beforeEach(() => {
  savedKey = process.env.TOOLSMITH_CREDENTIAL_KEY;
});
afterEach(() => {
  if (savedKey === undefined) delete process.env.TOOLSMITH_CREDENTIAL_KEY;
  else process.env.TOOLSMITH_CREDENTIAL_KEY = savedKey;
});

describe("openServices and credentials", () => {
  it("keeps credentials in memory without TOOLSMITH_CREDENTIAL_KEY, and beside the sessions with it, lasting across a restart", async () => {
    const database = join(dir, "beside.db");
    delete process.env.TOOLSMITH_CREDENTIAL_KEY;
    const withoutKey = await openServices({ sessionServiceUri: `sqlite://${database}`, artifactServiceUri: "memory://" });
    expect(withoutKey.credentialService).toBeInstanceOf(InMemoryCredentialService);
    await withoutKey.close();

    process.env.TOOLSMITH_CREDENTIAL_KEY = randomBytes(32).toString("base64");
    const first = await openServices({ sessionServiceUri: `sqlite://${database}`, artifactServiceUri: "memory://" });
    expect(first.credentialService).toBeInstanceOf(SqliteCredentialService);
    await first.credentialService.saveCredential({ context: scope, credentialKey: "github", credential: { authType: "apiKey", apiKey: "k-1" } });
    await first.close();
    const restarted = await openServices({ sessionServiceUri: `sqlite://${database}`, artifactServiceUri: "memory://" });
    expect(await restarted.credentialService.loadCredential({ context: scope, credentialKey: "github" })).toEqual({ authType: "apiKey", apiKey: "k-1" });
    await restarted.close();
  });

  it("keeps credentials in memory when the sessions are, key or not, and takes an explicit URI over the default", async () => {
    process.env.TOOLSMITH_CREDENTIAL_KEY = randomBytes(32).toString("base64");
    const inMemory = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://" });
    expect(inMemory.credentialService).toBeInstanceOf(InMemoryCredentialService);
    await inMemory.close();
    const explicit = await openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://", credentialServiceUri: `sqlite://${join(dir, "explicit-credentials.db")}` });
    expect(explicit.credentialService).toBeInstanceOf(SqliteCredentialService);
    await explicit.close();
  });

  it("fails with the credential service's reason when the key is missing, closing the services that opened and writing no credential file", async () => {
    delete process.env.TOOLSMITH_CREDENTIAL_KEY;
    const credentials = join(dir, "no-key", "credentials.db");
    const error = await openServices({ sessionServiceUri: `sqlite://${join(dir, "no-key-sessions.db")}`, artifactServiceUri: "memory://", credentialServiceUri: `sqlite://${credentials}` }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "CREDENTIAL_KEY_MISSING" });
    expect((error as Error).message).toMatch(/^Storing credentials in a database needs an encryption key in TOOLSMITH_CREDENTIAL_KEY, which is not set\. Make one with: /);
    expect(existsSync(credentials)).toBe(false);
  });

  it("fails for a malformed key before opening anything", async () => {
    process.env.TOOLSMITH_CREDENTIAL_KEY = "not-a-key";
    await expect(openServices({ sessionServiceUri: "memory://", artifactServiceUri: "memory://", credentialServiceUri: `sqlite://${join(dir, "malformed.db")}` })).rejects.toMatchObject({
      code: "CREDENTIAL_KEY_MALFORMED",
      message: expect.stringContaining("TOOLSMITH_CREDENTIAL_KEY is not a usable key: it is 6 bytes long, not 32."),
    });
  });
});

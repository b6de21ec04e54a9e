/**
 * The stored credential services (SQLite and PostgreSQL) with real files and a
 * real database: credentials last across a reopen, the stored bytes hold no
 * secret, and a wrong, missing or malformed key is refused with a clear error
 * while the stored credentials stay exactly as they were.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createCredentialService, CredentialCipher, State, type AuthCredential, type CredentialService } from "../../src/index.js";
import { PostgresCredentialService } from "../../src/postgres/index.js";
import { SqliteCredentialService } from "../../src/sqlite/index.js";
import { freshDatabase, postgresMissing, postgresUrl, queryDatabase } from "../support/postgres.js";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir();
const alice = { appName: "app", userId: "alice", state: new State({}, {}) };
const bob = { ...alice, userId: "bob" };
const token: AuthCredential = { authType: "oauth2", oauth2: { accessToken: "at-SECRET-7f3a", refreshToken: "rt-SECRET-91bc", expiresAt: 2_000_000_000 } };
const apiKey: AuthCredential = { authType: "apiKey", apiKey: "sk-SECRET-5d2e" };
const SECRETS = ["at-SECRET-7f3a", "rt-SECRET-91bc", "sk-SECRET-5d2e"];

/** How each store is opened with a given cipher, and how its raw stored text is read. */
interface Store {
  open(cipher: CredentialCipher): Promise<CredentialService & { close(): Promise<void> }>;
  /** Every stored byte, as text, for the plaintext search. */
  rawBytes(): Promise<string>;
  /** The stored rows, to compare before and after a refused open. */
  rows(): Promise<unknown[]>;
  /** Runs SQL on the store directly, as someone with write access to it could. */
  execute(sql: string): Promise<void>;
}

function sqliteStore(): Store {
  const path = join(dir, `credentials-${randomBytes(4).toString("hex")}.db`);
  const readRows = () => {
    const database = new Database(path, { readonly: true });
    try {
      return database.prepare("SELECT * FROM toolsmith_credentials ORDER BY user_id, credential_key").all();
    } finally {
      database.close();
    }
  };
  return {
    open: async (cipher) => new SqliteCredentialService({ path, cipher }),
    // The file and its write-ahead log: a secret must be in neither.
    rawBytes: async () => [path, `${path}-wal`].filter(existsSync).map((file) => readFileSync(file).toString("latin1")).join(""),
    rows: async () => readRows(),
    execute: async (sql) => {
      const database = new Database(path);
      try {
        database.exec(sql);
      } finally {
        database.close();
      }
    },
  };
}

async function postgresStore(): Promise<Store> {
  const url = await freshDatabase();
  const query = (sql: string) => queryDatabase(url, sql);
  return {
    open: (cipher) => PostgresCredentialService.open({ connectionString: url, cipher }),
    // The whole table as PostgreSQL returns it, bytes included.
    rawBytes: async () => JSON.stringify(await query("SELECT * FROM toolsmith_credentials")),
    rows: () => query("SELECT * FROM toolsmith_credentials ORDER BY user_id, credential_key"),
    execute: async (sql) => {
      await query(sql);
    },
  };
}

function describeStoredCredentials(name: string, makeStore: () => Store | Promise<Store>) {
  describe(name, () => {
    it("keeps credentials per user across a reopen, replaced by a later save", async () => {
      const store = await makeStore();
      const cipher = new CredentialCipher(randomBytes(32));
      const first = await store.open(cipher);
      await first.saveCredential({ context: alice, credentialKey: "github", credential: token });
      await first.saveCredential({ context: alice, credentialKey: "weather", credential: { authType: "apiKey", apiKey: "old" } });
      await first.saveCredential({ context: alice, credentialKey: "weather", credential: apiKey });
      await first.close();
      const reopened = await store.open(cipher);
      try {
        expect(await reopened.loadCredential({ context: alice, credentialKey: "github" })).toEqual(token);
        expect(await reopened.loadCredential({ context: alice, credentialKey: "weather" })).toEqual(apiKey);
        expect(await reopened.loadCredential({ context: bob, credentialKey: "github" })).toBeUndefined();
        expect(await reopened.loadCredential({ context: { ...alice, appName: "other" }, credentialKey: "github" })).toBeUndefined();
      } finally {
        await reopened.close();
      }
    });

    it("stores no secret in the clear", async () => {
      const store = await makeStore();
      const service = await store.open(new CredentialCipher(randomBytes(32)));
      await service.saveCredential({ context: alice, credentialKey: "github", credential: token });
      await service.saveCredential({ context: bob, credentialKey: "weather", credential: apiKey });
      await service.close();
      const raw = await store.rawBytes();
      expect(raw.length).toBeGreaterThan(0);
      expect(raw).toContain("github");
      for (const secret of SECRETS) {
        expect(raw).not.toContain(secret);
        expect(raw).not.toContain(Buffer.from(secret).toString("base64").slice(0, 12));
      }
    });

    it("refuses to open under another key, saying so, and leaves every stored credential as it was", async () => {
      const store = await makeStore();
      const right = new CredentialCipher(randomBytes(32));
      const service = await store.open(right);
      await service.saveCredential({ context: alice, credentialKey: "github", credential: token });
      await service.close();
      const before = await store.rows();

      const wrong = new CredentialCipher(randomBytes(32));
      const error = await store.open(wrong).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "CREDENTIAL_KEY_MISMATCH" });
      expect((error as Error).message).toBe(
        `The stored credentials were encrypted under another key (key id ${right.keyId}); TOOLSMITH_CREDENTIAL_KEY holds key id ${wrong.keyId}. Set TOOLSMITH_CREDENTIAL_KEY to the key they were stored with. Nothing was changed: the stored credentials are kept as they were.`,
      );
      expect(await store.rows()).toEqual(before);
      const again = await store.open(right);
      expect(await again.loadCredential({ context: alice, credentialKey: "github" })).toEqual(token);
      await again.close();
    });

    it("refuses a row copied onto another user's without handing out the credential, and keeps the owner's", async () => {
      const store = await makeStore();
      const service = await store.open(new CredentialCipher(randomBytes(32)));
      try {
        await service.saveCredential({ context: alice, credentialKey: "github", credential: token });
        await service.saveCredential({ context: bob, credentialKey: "github", credential: apiKey });
        // What an attacker with write access to the table would do: give bob alice's sealed token.
        await store.execute(
          "UPDATE toolsmith_credentials SET sealed = (SELECT sealed FROM toolsmith_credentials WHERE user_id = 'alice') WHERE user_id = 'bob'",
        );
        const error = await service.loadCredential({ context: bob, credentialKey: "github" }).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ code: "CREDENTIAL_UNREADABLE" });
        expect((error as Error).message).toBe(
          'The stored credential "github" of user "bob" in app "app" does not decrypt under the current key: it was changed, or copied from another user\'s. It was left as it is; the user can sign in again to replace it.',
        );
        expect(await service.loadCredential({ context: alice, credentialKey: "github" })).toEqual(token);
      } finally {
        await service.close();
      }
    });
  });
}

describeStoredCredentials("SqliteCredentialService", sqliteStore);
describe.skipIf(!postgresUrl)(`on PostgreSQL ${postgresMissing}`, () => describeStoredCredentials("PostgresCredentialService", postgresStore));

describe("createCredentialService", () => {
  it("opens memory:// with no key, and a stored one only with TOOLSMITH_CREDENTIAL_KEY, creating no file without it", async () => {
    const memory = await createCredentialService("memory://");
    await memory.saveCredential({ context: alice, credentialKey: "k", credential: apiKey });
    expect(await memory.loadCredential({ context: alice, credentialKey: "k" })).toEqual(apiKey);
    await memory.close();

    const saved = process.env.TOOLSMITH_CREDENTIAL_KEY;
    const path = join(dir, "needs-key", "credentials.db");
    try {
      delete process.env.TOOLSMITH_CREDENTIAL_KEY;
      await expect(createCredentialService(`sqlite://${path}`)).rejects.toMatchObject({ code: "CREDENTIAL_KEY_MISSING" });
      expect(existsSync(path)).toBe(false);
      process.env.TOOLSMITH_CREDENTIAL_KEY = randomBytes(32).toString("base64");
      const stored = await createCredentialService(`sqlite://${path}`);
      await stored.saveCredential({ context: alice, credentialKey: "k", credential: apiKey });
      await stored.close();
      const reopened = await createCredentialService(`sqlite://${path}`);
      expect(await reopened.loadCredential({ context: alice, credentialKey: "k" })).toEqual(apiKey);
      await reopened.close();
    } finally {
      if (saved === undefined) delete process.env.TOOLSMITH_CREDENTIAL_KEY;
      else process.env.TOOLSMITH_CREDENTIAL_KEY = saved;
    }
  });

  it("names the schemes it takes when given another", async () => {
    await expect(createCredentialService("file://creds")).rejects.toThrow(
      '"file://creds" does not name a credential service. Use one of: memory://, sqlite://, postgres://, postgresql:// (for example sqlite://.toolsmith/toolsmith.db).',
    );
  });
});

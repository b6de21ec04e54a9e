/**
 * The stored credential services (SQLite and PostgreSQL) with real files and a
 * real database: credentials last across a reopen, the stored bytes hold no
 * secret, a wrong, missing or malformed key is refused with a clear error
 * while the stored credentials stay exactly as they were, and a store moves to
 * a new key (the old one given as a previous key) without losing a credential,
 * also when servers open at once while another saves.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createCredentialService, CredentialCipher, InMemoryCredentialService, State, type AuthCredential, type CredentialService } from "../../src/index.js";
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

async function postgresStore(database?: string): Promise<Store> {
  const url = database ?? (await freshDatabase());
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

    it("refuses requests without an app, user or key, or with a credential that is no object, and keeps what is stored", async () => {
      const store = await makeStore();
      const service = await store.open(new CredentialCipher(randomBytes(32)));
      try {
        await service.saveCredential({ context: alice, credentialKey: "github", credential: token });
        const cases: [() => Promise<unknown>, string][] = [
          [() => service.saveCredential({ context: { ...alice, userId: undefined }, credentialKey: "github", credential: apiKey } as never), "A credential request needs its context: the app and user the credential belongs to (a tool or callback context, or { appName, userId, state })."],
          [() => service.saveCredential({ context: alice, credentialKey: "", credential: apiKey }), 'A credential request needs credentialKey, the name the credential is kept under; it got "".'],
          [() => service.saveCredential({ context: alice, credentialKey: "github", credential: "sk-live" } as never), 'A credential to save is an object such as { authType: "apiKey", apiKey: "…" }; it got a string.'],
          [() => service.saveCredential({ context: alice, credentialKey: "github" } as never), 'A credential to save is an object such as { authType: "apiKey", apiKey: "…" }; it got nothing.'],
          [() => service.loadCredential({ context: alice } as never), "A credential request needs credentialKey, the name the credential is kept under; it got nothing."],
          [() => service.loadCredential(undefined as never), "A credential request is { context, credentialKey } (and credential, to save): context names the app and user, as a tool context does."],
        ];
        for (const [make, message] of cases) await expect(make()).rejects.toMatchObject({ code: "UNSUPPORTED_OPTION", message });
        expect(await service.loadCredential({ context: alice, credentialKey: "github" })).toEqual(token);
      } finally {
        await service.close();
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

/** The key ids of the stored rows, by user and credential key. */
async function keyIds(store: Store): Promise<string[]> {
  return ((await store.rows()) as Array<{ user_id: string; credential_key: string; key_id: string }>).map((row) => `${row.user_id}/${row.credential_key}: ${row.key_id}`);
}

function describeKeyChange(name: string, makeStore: () => Store | Promise<Store>) {
  describe(`${name}: changing the key`, () => {
    it("encrypts every credential again under the new key when it opens with the old one as a previous key; the old key can then go", async () => {
      const store = await makeStore();
      const oldKey = randomBytes(32);
      const newKey = randomBytes(32);
      const old = await store.open(new CredentialCipher(oldKey));
      await old.saveCredential({ context: alice, credentialKey: "github", credential: token });
      await old.saveCredential({ context: bob, credentialKey: "weather", credential: apiKey });
      await old.close();
      const before = (await store.rows()) as Array<{ sealed: string }>;

      const moving = new CredentialCipher(newKey, { previousKeys: [oldKey] });
      const moved = await store.open(moving);
      expect(await moved.loadCredential({ context: alice, credentialKey: "github" })).toEqual(token);
      await moved.close();
      expect(await keyIds(store)).toEqual([`alice/github: ${moving.keyId}`, `bob/weather: ${moving.keyId}`]);
      const after = (await store.rows()) as Array<{ sealed: string }>;
      expect(after.map((row) => row.sealed)).not.toContain(before[0]!.sealed);
      for (const secret of SECRETS) expect(await store.rawBytes()).not.toContain(secret);

      // The old key is no longer needed, and no longer enough.
      const newOnly = await store.open(new CredentialCipher(newKey));
      expect(await newOnly.loadCredential({ context: bob, credentialKey: "weather" })).toEqual(apiKey);
      await newOnly.close();
      await expect(store.open(new CredentialCipher(oldKey))).rejects.toMatchObject({ code: "CREDENTIAL_KEY_MISMATCH" });
      expect(await store.rows()).toEqual(after);
    });

    it("leaves a credential that does not open under its key as it is, and moves the others", async () => {
      const store = await makeStore();
      const oldKey = randomBytes(32);
      const old = await store.open(new CredentialCipher(oldKey));
      await old.saveCredential({ context: alice, credentialKey: "github", credential: token });
      await old.saveCredential({ context: bob, credentialKey: "github", credential: apiKey });
      await old.close();
      // Alice's sealed token copied onto bob's row: it names the old key, but does not open as bob's.
      await store.execute("UPDATE toolsmith_credentials SET sealed = (SELECT sealed FROM toolsmith_credentials WHERE user_id = 'alice') WHERE user_id = 'bob'");
      const copied = ((await store.rows()) as Array<{ user_id: string; sealed: string }>).find((row) => row.user_id === "bob")!.sealed;

      const moving = new CredentialCipher(randomBytes(32), { previousKeys: [oldKey] });
      const service = await store.open(moving);
      try {
        expect(await service.loadCredential({ context: alice, credentialKey: "github" })).toEqual(token);
        await expect(service.loadCredential({ context: bob, credentialKey: "github" })).rejects.toMatchObject({ code: "CREDENTIAL_UNREADABLE" });
      } finally {
        await service.close();
      }
      const rows = (await store.rows()) as Array<{ user_id: string; key_id: string; sealed: string }>;
      expect(rows.map((row) => `${row.user_id}: ${row.key_id}`)).toEqual([`alice: ${moving.keyId}`, `bob: ${new CredentialCipher(oldKey).keyId}`]);
      expect(rows.find((row) => row.user_id === "bob")!.sealed).toBe(copied);
    });

    it("refuses a store holding a key it has neither as current nor as previous, changing nothing", async () => {
      const store = await makeStore();
      const stored = new CredentialCipher(randomBytes(32));
      const first = await store.open(stored);
      await first.saveCredential({ context: alice, credentialKey: "github", credential: token });
      await first.close();
      const before = await store.rows();
      const other = new CredentialCipher(randomBytes(32), { previousKeys: [randomBytes(32)] });
      const error = await store.open(other).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "CREDENTIAL_KEY_MISMATCH", message: expect.stringContaining(`or add it to TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS`) });
      expect((error as Error).message).toContain(`key id ${stored.keyId}`);
      expect(await store.rows()).toEqual(before);
    });
  });
}

describeStoredCredentials("SqliteCredentialService", sqliteStore);
describeKeyChange("SqliteCredentialService", sqliteStore);
describe.skipIf(!postgresUrl)(`on PostgreSQL ${postgresMissing}`, () => {
  describeKeyChange("PostgresCredentialService", postgresStore);

  it("servers opening at once with the new key move every credential, and none overwrites a credential saved meanwhile", async () => {
    const url = await freshDatabase();
    const store = await postgresStore(url);
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const moving = () => new CredentialCipher(newKey, { previousKeys: [oldKey] });
    const old = await store.open(new CredentialCipher(oldKey));
    const users = Array.from({ length: 40 }, (_, index) => ({ ...alice, userId: `user-${index}` }));
    for (const user of users) await old.saveCredential({ context: user, credentialKey: "github", credential: token });
    await old.close();

    // A server already on the new key saves a fresh token for user-0 at the worst moment: after the starting servers
    // read user-0's old credential, before they write it back. Its transaction holds the row meanwhile.
    const saving = new pg.Client({ connectionString: url });
    await saving.connect();
    const fresh: AuthCredential = { authType: "oauth2", oauth2: { accessToken: "at-fresh" } };
    try {
      await saving.query("BEGIN");
      await saving.query("SELECT 1 FROM toolsmith_credentials WHERE user_id = 'user-0' FOR UPDATE");
      const starting = Promise.all([store.open(moving()), store.open(moving()), store.open(moving())]);
      // Until at least one of them waits for the row (it read it, and its update is blocked).
      for (let waited = 0; waited < 200; waited++) {
        const blocked = await saving.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE toolsmith_credentials%'");
        if (blocked.rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const sealed = moving().seal({ appName: "app", userId: "user-0", credentialKey: "github" }, fresh);
      await saving.query("UPDATE toolsmith_credentials SET key_id = $1, sealed = $2 WHERE user_id = 'user-0'", [moving().keyId, sealed]);
      await saving.query("COMMIT");
      const servers = await starting;
      try {
        expect(new Set(await keyIds(store))).toEqual(new Set(users.map((user) => `${user.userId}/github: ${moving().keyId}`)));
        expect(await servers[1]!.loadCredential({ context: users[0]!, credentialKey: "github" })).toEqual(fresh);
        for (const user of users.slice(1)) expect(await servers[2]!.loadCredential({ context: user, credentialKey: "github" })).toEqual(token);
      } finally {
        await Promise.all(servers.map((service) => service.close()));
      }
    } finally {
      await saving.end();
    }
  });
});
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

  it("moves a store to a new key given in TOOLSMITH_CREDENTIAL_KEY with the old one in TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS", async () => {
    const saved = { key: process.env.TOOLSMITH_CREDENTIAL_KEY, previous: process.env.TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS };
    const path = join(dir, "key-change", "credentials.db");
    const oldKey = randomBytes(32).toString("base64");
    const newKey = randomBytes(32).toString("hex");
    try {
      delete process.env.TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS;
      process.env.TOOLSMITH_CREDENTIAL_KEY = oldKey;
      const old = await createCredentialService(`sqlite://${path}`);
      await old.saveCredential({ context: alice, credentialKey: "k", credential: apiKey });
      await old.close();
      process.env.TOOLSMITH_CREDENTIAL_KEY = newKey;
      await expect(createCredentialService(`sqlite://${path}`)).rejects.toMatchObject({ code: "CREDENTIAL_KEY_MISMATCH" });
      process.env.TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS = oldKey;
      const moved = await createCredentialService(`sqlite://${path}`);
      expect(await moved.loadCredential({ context: alice, credentialKey: "k" })).toEqual(apiKey);
      await moved.close();
      delete process.env.TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS;
      const newOnly = await createCredentialService(`sqlite://${path}`);
      expect(await newOnly.loadCredential({ context: alice, credentialKey: "k" })).toEqual(apiKey);
      await newOnly.close();
    } finally {
      for (const [name, value] of [["TOOLSMITH_CREDENTIAL_KEY", saved.key], ["TOOLSMITH_CREDENTIAL_PREVIOUS_KEYS", saved.previous]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("names the schemes it takes when given another", async () => {
    await expect(createCredentialService("file://creds")).rejects.toThrow(
      '"file://creds" does not name a credential service. Use one of: memory://, sqlite://, postgres://, postgresql:// (for example sqlite://.toolsmith/toolsmith.db).',
    );
  });
});

describe("InMemoryCredentialService given requests it cannot read", () => {
  it("refuses them as the stored services do, and still takes ADK's form with nothing to save", async () => {
    const service = new InMemoryCredentialService();
    await expect(service.saveCredential({ context: { ...alice, appName: "" }, credentialKey: "github", credential: token })).rejects.toMatchObject({
      code: "UNSUPPORTED_OPTION",
      message: "A credential request needs its context: the app and user the credential belongs to (a tool or callback context, or { appName, userId, state }).",
    });
    await expect(service.saveCredential({ context: alice, credentialKey: "github", credential: 42 } as never)).rejects.toMatchObject({ message: 'A credential to save is an object such as { authType: "apiKey", apiKey: "…" }; it got a number.' });
    // ADK's saveCredential(authConfig, toolContext) with no exchanged credential saves nothing, as ADK's does.
    await service.saveCredential({ authScheme: { type: "apiKey" }, credentialKey: "weather" } as never, alice);
    expect(await service.loadCredential({ context: alice, credentialKey: "weather" })).toBeUndefined();
  });
});

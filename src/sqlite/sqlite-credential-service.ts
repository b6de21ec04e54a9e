import { CredentialCipher, keyMismatch, resealUnderCurrentKey, type SealedCredential } from "../auth/credential-encryption.js";
import { logger } from "../logging/logger.js";
import { assertCredentialRequest, type AuthCredential, type CredentialRequest, type CredentialService } from "../auth/credential-service.js";
import { checkSqliteServiceOptions, openSqliteService, translateSqliteError, type SqliteServiceOptions } from "./sqlite-database.js";
import type { SqliteDatabase } from "./sqlite-driver.js";

const MIGRATIONS = [
  `CREATE TABLE toolsmith_credentials (
     app_name TEXT NOT NULL, user_id TEXT NOT NULL, credential_key TEXT NOT NULL,
     key_id TEXT NOT NULL, sealed TEXT NOT NULL, update_time REAL NOT NULL,
     PRIMARY KEY (app_name, user_id, credential_key));`,
];

/** Options of {@link SqliteCredentialService}: the file (or an open database) and the cipher, by default the one of `TOOLSMITH_CREDENTIAL_KEY`. */
export type SqliteCredentialOptions = SqliteServiceOptions & { cipher?: CredentialCipher };

/**
 * Credentials in a SQLite file, per app and user, so a user who signed in
 * stays signed in across restarts. Each credential is encrypted (AES-256-GCM)
 * under the key in `TOOLSMITH_CREDENTIAL_KEY`; the file holds no secret in
 * the clear. Opening a file whose credentials were stored under another key
 * fails with `CREDENTIAL_KEY_MISMATCH` and changes nothing.
 *
 * @example
 * ```ts
 * import { SqliteCredentialService } from "toolsmith/sqlite";
 * const credentialService = new SqliteCredentialService({ path: ".toolsmith/toolsmith.db" });
 * const runner = new Runner({ appName: "app", agent, credentialService });
 * ```
 */
export class SqliteCredentialService implements CredentialService {
  readonly #database: SqliteDatabase;
  readonly #ownsDatabase: boolean;
  readonly #cipher: CredentialCipher;
  readonly #sql;

  constructor(options: SqliteCredentialOptions) {
    checkSqliteServiceOptions("SqliteCredentialService", options, ["cipher"]);
    // The key is checked before the file is opened, so a missing one creates no file.
    this.#cipher = options.cipher ?? CredentialCipher.fromEnvironment();
    ({ database: this.#database, ownsDatabase: this.#ownsDatabase } = openSqliteService("SqliteCredentialService", options, "credentials", MIGRATIONS, {
      extraKeys: ["cipher"],
      check: (database) => this.#moveToCurrentKey(database),
    }));
    this.#sql = {
      load: this.#database.prepare("SELECT sealed FROM toolsmith_credentials WHERE app_name = ? AND user_id = ? AND credential_key = ?"),
      save: this.#database.prepare(
        `INSERT INTO toolsmith_credentials (app_name, user_id, credential_key, key_id, sealed, update_time) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (app_name, user_id, credential_key) DO UPDATE SET key_id = excluded.key_id, sealed = excluded.sealed, update_time = excluded.update_time`,
      ),
    };
  }

  /**
   * Refuses a store holding credentials under a key the cipher does not have (changing nothing), and seals again
   * under the current key those stored under a previous one, in one transaction.
   */
  #moveToCurrentKey(database: SqliteDatabase): void {
    const known = [this.#cipher.keyId, ...this.#cipher.previousKeyIds];
    const marks = known.map(() => "?").join(", ");
    const unknown = database.prepare(`SELECT key_id FROM toolsmith_credentials WHERE key_id NOT IN (${marks}) LIMIT 1`).value(...known);
    if (typeof unknown === "string") throw keyMismatch(unknown, this.#cipher);
    if (known.length === 1) return;
    const select = database.prepare("SELECT app_name AS appName, user_id AS userId, credential_key AS credentialKey, sealed FROM toolsmith_credentials WHERE key_id <> ?");
    // Written back only where the text read is still there: a credential another process saved meanwhile stays.
    const update = database.prepare("UPDATE toolsmith_credentials SET key_id = ?, sealed = ? WHERE app_name = ? AND user_id = ? AND credential_key = ? AND sealed = ?");
    const resealed = database.transaction("immediate", () => {
      const moved = resealUnderCurrentKey(this.#cipher, select.all(this.#cipher.keyId) as SealedCredential[]);
      for (const credential of moved) update.run(this.#cipher.keyId, credential.resealed, credential.appName, credential.userId, credential.credentialKey, credential.sealed);
      return moved;
    });
    if (resealed.length === 0) return;
    logger.info(`Encrypted ${resealed.length} stored credential${resealed.length === 1 ? "" : "s"} again under the current key (key id ${this.#cipher.keyId}) in ${database.name}.`);
  }

  async loadCredential(request: CredentialRequest): Promise<AuthCredential | undefined> {
    assertCredentialRequest(request);
    const { context, credentialKey } = request;
    let sealed: unknown;
    try {
      sealed = this.#sql.load.value(context.appName, context.userId, credentialKey);
    } catch (error) {
      throw translateSqliteError(this.#database.name, error);
    }
    return typeof sealed === "string" ? this.#cipher.open({ appName: context.appName, userId: context.userId, credentialKey }, sealed) : undefined;
  }

  async saveCredential(request: CredentialRequest & { credential: AuthCredential }): Promise<void> {
    assertCredentialRequest(request, { saving: true });
    const { context, credentialKey, credential } = request;
    const sealed = this.#cipher.seal({ appName: context.appName, userId: context.userId, credentialKey }, credential);
    try {
      this.#sql.save.run(context.appName, context.userId, credentialKey, this.#cipher.keyId, sealed, Date.now() / 1000);
    } catch (error) {
      throw translateSqliteError(this.#database.name, error);
    }
  }

  /** Closes the file, when this service opened it. */
  async close(): Promise<void> {
    if (this.#ownsDatabase) this.#database.close();
  }
}

import type pg from "pg";
import { CredentialCipher, keyMismatch, resealUnderCurrentKey, type SealedCredential } from "../auth/credential-encryption.js";
import { logger } from "../logging/logger.js";
import { assertCredentialRequest, type AuthCredential, type CredentialRequest, type CredentialService } from "../auth/credential-service.js";
import { checkPostgresOptions, openPostgresComponent, type PostgresOptions } from "./postgres-database.js";

const MIGRATIONS = [
  `CREATE TABLE toolsmith_credentials (
     app_name text NOT NULL, user_id text NOT NULL, credential_key text NOT NULL,
     key_id text NOT NULL, sealed text NOT NULL, update_time double precision NOT NULL,
     PRIMARY KEY (app_name, user_id, credential_key));`,
];

/** Options of {@link PostgresCredentialService.open}: the connection and the cipher, by default the one of `TOOLSMITH_CREDENTIAL_KEY`. */
export type PostgresCredentialOptions = PostgresOptions & { cipher?: CredentialCipher };

/**
 * Credentials in PostgreSQL, per app and user, so a user who signed in
 * through one server process is signed in on every other and after a restart.
 * Each credential is encrypted (AES-256-GCM) under the key in
 * `TOOLSMITH_CREDENTIAL_KEY`, which every server sharing the database must
 * have; the database holds no secret in the clear. Opening a store whose
 * credentials were stored under another key fails with
 * `CREDENTIAL_KEY_MISMATCH` and changes nothing. Create it with
 * {@link PostgresCredentialService.open}.
 *
 * @example
 * ```ts
 * import { PostgresCredentialService } from "toolsmith/postgres";
 * const credentialService = await PostgresCredentialService.open({ connectionString: process.env.DATABASE_URL! });
 * ```
 */
export class PostgresCredentialService implements CredentialService {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #cipher: CredentialCipher;

  private constructor(pool: pg.Pool, ownsPool: boolean, cipher: CredentialCipher) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#cipher = cipher;
  }

  /** Checks the key, connects, creates or upgrades the table, and checks that what is stored was stored under this key. */
  static async open(options: PostgresCredentialOptions): Promise<PostgresCredentialService> {
    checkPostgresOptions("PostgresCredentialService", options, ["cipher"]);
    // The key is checked before connecting, so a missing one opens no connection.
    const cipher = options.cipher ?? CredentialCipher.fromEnvironment();
    const { pool, ownsPool } = await openPostgresComponent("PostgresCredentialService", options, "credentials", MIGRATIONS, { extraKeys: ["cipher"], check: (pool) => moveToCurrentKey(pool, cipher) });
    return new PostgresCredentialService(pool, ownsPool, cipher);
  }

  async loadCredential(request: CredentialRequest): Promise<AuthCredential | undefined> {
    assertCredentialRequest(request);
    const { context, credentialKey } = request;
    const result = await this.#pool.query<{ sealed: string }>(
      "SELECT sealed FROM toolsmith_credentials WHERE app_name = $1 AND user_id = $2 AND credential_key = $3",
      [context.appName, context.userId, credentialKey],
    );
    const sealed = result.rows[0]?.sealed;
    return sealed === undefined ? undefined : this.#cipher.open({ appName: context.appName, userId: context.userId, credentialKey }, sealed);
  }

  async saveCredential(request: CredentialRequest & { credential: AuthCredential }): Promise<void> {
    assertCredentialRequest(request, { saving: true });
    const { context, credentialKey, credential } = request;
    const sealed = this.#cipher.seal({ appName: context.appName, userId: context.userId, credentialKey }, credential);
    await this.#pool.query(
      `INSERT INTO toolsmith_credentials (app_name, user_id, credential_key, key_id, sealed, update_time) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (app_name, user_id, credential_key) DO UPDATE SET key_id = EXCLUDED.key_id, sealed = EXCLUDED.sealed, update_time = EXCLUDED.update_time`,
      [context.appName, context.userId, credentialKey, this.#cipher.keyId, sealed, Date.now() / 1000],
    );
  }

  /** Ends the pool, when this service made it. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}

/**
 * Refuses a store holding credentials under a key the cipher does not have (changing nothing), and seals again
 * under the current key those stored under a previous one. Each is written back only where the text read is still
 * there, so a credential another server saved meanwhile stays, and servers opening at once each move what is left.
 */
async function moveToCurrentKey(pool: pg.Pool, cipher: CredentialCipher): Promise<void> {
  const known = [cipher.keyId, ...cipher.previousKeyIds];
  const unknown = await pool.query<{ key_id: string }>("SELECT key_id FROM toolsmith_credentials WHERE NOT (key_id = ANY($1)) LIMIT 1", [known]);
  if (unknown.rows[0]) throw keyMismatch(unknown.rows[0].key_id, cipher);
  if (known.length === 1) return;
  const stored = await pool.query<SealedCredential>(
    'SELECT app_name AS "appName", user_id AS "userId", credential_key AS "credentialKey", sealed FROM toolsmith_credentials WHERE key_id <> $1',
    [cipher.keyId],
  );
  let moved = 0;
  for (const credential of resealUnderCurrentKey(cipher, stored.rows)) {
    const written = await pool.query(
      "UPDATE toolsmith_credentials SET key_id = $1, sealed = $2 WHERE app_name = $3 AND user_id = $4 AND credential_key = $5 AND sealed = $6",
      [cipher.keyId, credential.resealed, credential.appName, credential.userId, credential.credentialKey, credential.sealed],
    );
    moved += written.rowCount ?? 0;
  }
  if (moved > 0) logger.info(`Encrypted ${moved} stored credential${moved === 1 ? "" : "s"} again under the current key (key id ${cipher.keyId}).`);
}

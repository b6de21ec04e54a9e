import { InMemoryCredentialService, type CredentialService } from "../auth/credential-service.js";
import type { ClosableService } from "./create-session-service.js";
import { importWithDriver, parseServiceUri } from "./service-uri.js";

/**
 * A credential service chosen by URI: `memory://` (this process only),
 * `sqlite://<path>` or `postgresql://…` (kept across restarts and shared by
 * every server over the same database). The stored ones encrypt each
 * credential under the key in `TOOLSMITH_CREDENTIAL_KEY` and refuse to open
 * without it (`CREDENTIAL_KEY_MISSING`, saying how to make one) or with a key
 * other than the one the stored credentials were encrypted under
 * (`CREDENTIAL_KEY_MISMATCH`, changing nothing).
 *
 * @example
 * ```ts
 * // TOOLSMITH_CREDENTIAL_KEY=$(openssl rand -base64 32)
 * const credentialService = await createCredentialService("sqlite://.toolsmith/toolsmith.db");
 * const runner = new Runner({ appName: "app", agent, credentialService });
 * ```
 */
export async function createCredentialService(uri: string): Promise<ClosableService<CredentialService>> {
  const { scheme, location } = parseServiceUri(uri, { service: "credential", schemes: ["memory", "sqlite", "postgres", "postgresql"] });
  if (scheme === "memory") return Object.assign(new InMemoryCredentialService(), { close: async () => undefined });
  if (scheme === "sqlite") {
    const { SqliteCredentialService } = await import("../sqlite/sqlite-credential-service.js");
    return new SqliteCredentialService({ path: location });
  }
  const { PostgresCredentialService } = await importWithDriver(() => import("../postgres/postgres-credential-service.js"), { packageName: "pg", scheme });
  return PostgresCredentialService.open({ connectionString: location });
}

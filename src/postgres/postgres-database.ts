import pg from "pg";
import { StorageError } from "../errors/storage-error.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { describeGiven, refuseNonObjectOptions, refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { redactUriPassword } from "../errors/redact-uri.js";

/** How the PostgreSQL services reach the database: a URL, or a pool to share. */
export type PostgresOptions =
  | {
      /** `postgres://user:password@host:port/database`. */
      connectionString: string;
      /** How long to wait for a connection before failing. Default 10,000 ms. */
      connectTimeoutMs?: number;
      /** Connections in the pool. Default 10. */
      maxConnections?: number;
    }
  | { pool: pg.Pool };

/** A pool and whether the service that made it should end it. */
export interface PostgresConnection {
  pool: pg.Pool;
  ownsPool: boolean;
}

/** Creates (or takes) the pool and checks that the server answers, so a wrong URL fails here rather than at the first append. */
export async function connectPostgres(options: PostgresOptions): Promise<PostgresConnection> {
  if ("pool" in options) return { pool: options.pool, ownsPool: false };
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    max: options.maxConnections ?? 10,
  });
  // An idle connection that the server drops must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StorageError(
      "POSTGRES_UNREACHABLE",
      `Could not connect to PostgreSQL at ${redactUriPassword(options.connectionString)} (${describeError(error)}). Check that the server is running and the URL is right; nothing was stored.`,
      { cause: error },
    );
  }
  return { pool, ownsPool: true };
}

/**
 * Refuses, before connecting, options a PostgreSQL service cannot use: a URL given alone, an unknown option, a URL
 * that is not a string, a pool that is not one, a timeout or pool size that is not a positive whole number.
 * `extraKeys` are the service's own options.
 */
export function checkPostgresOptions(owner: string, options: unknown, extraKeys: readonly string[] = []): asserts options is PostgresOptions {
  refuseNonObjectOptions(owner, options, (given) => `${owner}.open({ connectionString: ${JSON.stringify(given === undefined ? "postgres://user:password@host:5432/database" : redactUriPassword(given))} }), or { pool } with a pg.Pool to share`);
  if (options.pool !== undefined) {
    refuseUnhonouredOptions(owner, options, ["pool", ...extraKeys]);
    const pool = options.pool as Partial<pg.Pool> | null;
    if (typeof pool?.query !== "function" || typeof pool.connect !== "function") {
      throw new ConfigurationError("UNSUPPORTED_OPTION", `${owner}'s pool must be a pg.Pool (new pg.Pool({ connectionString })); it got ${typeof pool === "object" ? "an object without query and connect" : typeof pool}.`);
    }
    return;
  }
  refuseUnhonouredOptions(owner, options, ["connectionString", "connectTimeoutMs", "maxConnections", ...extraKeys]);
  if (typeof options.connectionString !== "string" || options.connectionString.trim() === "") {
    throw new ConfigurationError(
      "UNSUPPORTED_OPTION",
      `${owner}'s connectionString must be the database's URL (postgres://user:password@host:5432/database); it got ${options.connectionString === undefined ? "nothing" : typeof options.connectionString === "string" ? "an empty string" : typeof options.connectionString}.`,
    );
  }
  for (const name of ["connectTimeoutMs", "maxConnections"] as const) positiveWholeOption(owner, name, options[name]);
}

/** Refuses a number option that is set to anything but a positive whole number. */
export function positiveWholeOption(owner: string, name: string, value: unknown): void {
  if (value === undefined || (typeof value === "number" && Number.isInteger(value) && value > 0)) return;
  throw new ConfigurationError("UNSUPPORTED_OPTION", `${owner}'s ${name} must be a positive whole number; it got ${describeGiven(value)}.`);
}

/**
 * Checks the options ({@link checkPostgresOptions}), connects, creates or upgrades one component's tables and runs
 * `check` (what else the component verifies before it is used), ending the pool it made when any of that fails, so
 * a service that cannot open leaves no connection behind.
 */
export async function openPostgresComponent(
  owner: string,
  options: unknown,
  component: string,
  migrations: readonly string[],
  { extraKeys = [], check }: { extraKeys?: readonly string[]; check?: (pool: pg.Pool) => Promise<void> } = {},
): Promise<PostgresConnection> {
  checkPostgresOptions(owner, options, extraKeys);
  const connection = await connectPostgres(options);
  try {
    await migratePostgres(connection.pool, component, migrations);
    await check?.(connection.pool);
  } catch (error) {
    if (connection.ownsPool) await connection.pool.end();
    throw error;
  }
  return connection;
}

/**
 * Creates or upgrades one component's tables to the newest of `migrations`,
 * recording the version in `toolsmith_schema`. An advisory lock makes many
 * server processes starting at once migrate one after another.
 */
export async function migratePostgres(pool: pg.Pool, component: string, migrations: readonly string[]): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('toolsmith_schema'))");
    await client.query("CREATE TABLE IF NOT EXISTS toolsmith_schema (component text PRIMARY KEY, version integer NOT NULL)");
    const result = await client.query<{ version: number }>("SELECT version FROM toolsmith_schema WHERE component = $1", [component]);
    const version = result.rows[0]?.version ?? 0;
    if (version > migrations.length) {
      throw new StorageError(
        "SCHEMA_TOO_NEW",
        `The ${component} tables are at schema version ${version}, newer than this toolsmith knows (${migrations.length}). Upgrade toolsmith.`,
      );
    }
    for (let next = version; next < migrations.length; next++) await client.query(migrations[next]!);
    await client.query(
      "INSERT INTO toolsmith_schema (component, version) VALUES ($1, $2) ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version",
      [component, migrations.length],
    );
  });
}

/** Runs `work` in one transaction on one pooled connection: committed if it returns, rolled back if it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  const code = (error as { code?: string }).code;
  const message = error instanceof Error && error.message ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/** A PostgreSQL cluster of its own, listening on 127.0.0.1 only. */
export interface PostgresCluster {
  url: string;
  stop(): void;
}

/** Where Debian's postgresql package put initdb and pg_ctl (newest version), if it is installed. */
export function findPostgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((version) => existsSync(join(root, version, "bin", "initdb")));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], "bin");
}

/**
 * Starts a throwaway cluster (initdb, then pg_ctl) in a temporary folder on a
 * free loopback port, with PostgreSQL's default durability (fsync and
 * synchronous_commit on). initdb refuses to run as root, so as root the
 * cluster belongs to the postgres user.
 */
export async function startPostgresCluster(binaries: string): Promise<PostgresCluster> {
  const dataDir = mkdtempSync(join(tmpdir(), "toolsmith-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (binary: string, args: string[]) =>
    asRoot ? execFileSync("runuser", ["-u", "postgres", "--", join(binaries, binary), ...args], { stdio: "pipe" }) : execFileSync(join(binaries, binary), args, { stdio: "pipe" });
  if (asRoot) chownSync(dataDir, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), Number(execFileSync("id", ["-g", "postgres"]).toString().trim()));
  const port = await freePort();
  try {
    run("initdb", ["-D", join(dataDir, "data"), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"]);
    run("pg_ctl", ["-D", join(dataDir, "data"), "-l", join(dataDir, "log"), "-w", "-o", `-h 127.0.0.1 -p ${port} -k ${dataDir}`, "start"]);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`Could not start a PostgreSQL cluster: ${output}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run("pg_ctl", ["-D", join(dataDir, "data"), "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

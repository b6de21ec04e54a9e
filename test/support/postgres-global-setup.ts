/**
 * Starts a throwaway PostgreSQL cluster on a free loopback port for the test
 * run (initdb and pg_ctl from Debian's postgresql package), or uses
 * DATABASE_URL when it is set. Tests read the URL with inject("postgresUrl").
 * In CI a cluster that cannot start fails the run; elsewhere the PostgreSQL
 * tests skip with the reason.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "./free-port.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL URL, or "" when none could be had. */
    postgresUrl: string;
    /** Why there is no PostgreSQL, when postgresUrl is "". */
    postgresMissing: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) {
    project.provide("postgresUrl", process.env.DATABASE_URL);
    project.provide("postgresMissing", "");
    return undefined;
  }
  const binaries = findPostgresBinaries();
  if (!binaries) {
    const reason = "PostgreSQL binaries not found (apt-get install -y postgresql, or set DATABASE_URL)";
    if (process.env.CI) throw new Error(`${reason}; the PostgreSQL tests cannot run in CI without them.`);
    console.warn(`Skipping the PostgreSQL tests: ${reason}.`);
    project.provide("postgresUrl", "");
    project.provide("postgresMissing", reason);
    return undefined;
  }
  const dataDir = mkdtempSync(join(tmpdir(), "toolsmith-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (binary: string, args: string[]) =>
    asRoot ? execFileSync("runuser", ["-u", "postgres", "--", join(binaries, binary), ...args], { stdio: "pipe" }) : execFileSync(join(binaries, binary), args, { stdio: "pipe" });
  // initdb refuses to run as root, so the cluster belongs to the postgres user.
  if (asRoot) chownSync(dataDir, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), Number(execFileSync("id", ["-g", "postgres"]).toString().trim()));
  const port = await freePort();
  try {
    run("initdb", ["-D", join(dataDir, "data"), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"]);
    run("pg_ctl", ["-D", join(dataDir, "data"), "-l", join(dataDir, "log"), "-w", "-o", `-h 127.0.0.1 -p ${port} -k ${dataDir}`, "start"]);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`Could not start a PostgreSQL cluster for the tests: ${output}`);
  }
  project.provide("postgresUrl", `postgres://postgres@127.0.0.1:${port}/postgres`);
  project.provide("postgresMissing", "");
  return () => {
    try {
      run("pg_ctl", ["-D", join(dataDir, "data"), "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
}

function findPostgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((version) => existsSync(join(root, version, "bin", "initdb")));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], "bin");
}

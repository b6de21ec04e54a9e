/**
 * Starts a throwaway PostgreSQL cluster on a free loopback port for the test
 * run (initdb and pg_ctl from Debian's postgresql package), or uses
 * DATABASE_URL when it is set. Tests read the URL with inject("postgresUrl").
 * In CI a cluster that cannot start fails the run; elsewhere the PostgreSQL
 * tests skip with the reason.
 */
import type { TestProject } from "vitest/node";
import { findPostgresBinaries, startPostgresCluster } from "./postgres-cluster.js";

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
    project.provide("postgresMissing", `(skipped: ${reason})`);
    return undefined;
  }
  // Fails the whole run loudly when the cluster cannot start.
  const cluster = await startPostgresCluster(binaries);
  project.provide("postgresUrl", cluster.url);
  project.provide("postgresMissing", "");
  return () => cluster.stop();
}

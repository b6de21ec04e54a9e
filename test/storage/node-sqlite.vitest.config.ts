/**
 * The storage tests that run over each SQLite driver, for a second vitest run
 * under Node 24 (started by test/storage/node-sqlite.test.ts), where node:sqlite
 * exists. No PostgreSQL here: the main run covers it.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../../", import.meta.url)),
    include: ["test/storage/session-services.test.ts", "test/storage/memory-services.test.ts", "test/storage/sqlite-bad-files.test.ts", "test/storage/sqlite-drivers.test.ts"],
    provide: { postgresUrl: "", postgresMissing: "(skipped: the node:sqlite run leaves PostgreSQL to the main run)" },
    testTimeout: 30_000,
  },
});

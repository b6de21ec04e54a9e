import { join } from "node:path";
import { describe } from "vitest";
import { InMemorySessionService } from "../../src/index.js";
import { PostgresSessionService } from "../../src/postgres/index.js";
import { SqliteSessionService } from "../../src/sqlite/index.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";
import { describeSessionServiceConformance } from "../support/session-service-conformance.js";
import { tempDir } from "../support/temp-dir.js";
import { SQLITE_DRIVERS } from "./sqlite-drivers-here.js";

describeSessionServiceConformance("InMemorySessionService", async () => new InMemorySessionService());
// Every session but the one in use packed: each contract holds when sessions go idle and come back.
describeSessionServiceConformance("InMemorySessionService keeping one session live", async () => new InMemorySessionService({ liveSessions: 1 }));

const dir = tempDir();
let fileCounter = 0;
for (const { driver, skipped, title } of SQLITE_DRIVERS) {
  describe.skipIf(skipped)(title, () => {
    describeSessionServiceConformance(`SqliteSessionService over ${driver}`, async () => new SqliteSessionService({ path: join(dir, `sessions-${++fileCounter}.db`), driver }));
  });
}

describe.skipIf(!postgresUrl)(`PostgreSQL ${postgresMissing}`, () => {
  let url: Promise<string> | undefined;
  describeSessionServiceConformance("PostgresSessionService", async () => PostgresSessionService.open({ connectionString: await (url ??= freshDatabase()) }));
});

import { join } from "node:path";
import { describe } from "vitest";
import { InMemoryMemoryService } from "../../src/index.js";
import { PostgresMemoryService } from "../../src/postgres/index.js";
import { SqliteMemoryService } from "../../src/sqlite/index.js";
import { describeMemoryServiceConformance } from "../support/memory-service-conformance.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";
import { tempDir } from "../support/temp-dir.js";
import { SQLITE_DRIVERS } from "./sqlite-drivers-here.js";

describeMemoryServiceConformance("InMemoryMemoryService", async () => new InMemoryMemoryService());

const dir = tempDir();
let fileCounter = 0;
for (const { driver, skipped, title } of SQLITE_DRIVERS) {
  describe.skipIf(skipped)(title, () => {
    describeMemoryServiceConformance(`SqliteMemoryService over ${driver}`, async () => new SqliteMemoryService({ path: join(dir, `memory-${++fileCounter}.db`), driver }));
  });
}

describe.skipIf(!postgresUrl)(`PostgreSQL ${postgresMissing}`, () => {
  describeMemoryServiceConformance("PostgresMemoryService", async () => PostgresMemoryService.open({ connectionString: await freshDatabase() }));
});

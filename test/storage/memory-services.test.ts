import { join } from "node:path";
import { describe } from "vitest";
import { InMemoryMemoryService } from "../../src/index.js";
import { PostgresMemoryService } from "../../src/postgres/index.js";
import { SqliteMemoryService } from "../../src/sqlite/index.js";
import { describeMemoryServiceConformance } from "../support/memory-service-conformance.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";
import { tempDir } from "../support/temp-dir.js";

describeMemoryServiceConformance("InMemoryMemoryService", async () => new InMemoryMemoryService());

const dir = tempDir();
let fileCounter = 0;
describeMemoryServiceConformance("SqliteMemoryService", async () => new SqliteMemoryService({ path: join(dir, `memory-${++fileCounter}.db`) }));

describe.skipIf(!postgresUrl)(`PostgreSQL ${postgresMissing}`, () => {
  describeMemoryServiceConformance("PostgresMemoryService", async () => PostgresMemoryService.open({ connectionString: await freshDatabase() }));
});

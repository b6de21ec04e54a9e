import { join } from "node:path";
import { describe } from "vitest";
import { InMemoryArtifactService } from "../../src/index.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { describeArtifactServiceConformance } from "../support/artifact-service-conformance.js";
import { tempDir } from "../support/temp-dir.js";
import { PostgresArtifactService } from "../../src/postgres/index.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";

describeArtifactServiceConformance("InMemoryArtifactService", async () => new InMemoryArtifactService());

const dir = tempDir();
let rootCounter = 0;
describeArtifactServiceConformance("FileArtifactService", async () => new FileArtifactService({ root: join(dir, `artifacts-${++rootCounter}`) }));

describe.skipIf(!postgresUrl)(`PostgresArtifactService ${postgresMissing}`, () => {
  // A fresh database per test; 5-byte chunks so that every artifact spans several of them.
  describeArtifactServiceConformance("PostgresArtifactService", async () => PostgresArtifactService.open({ connectionString: await freshDatabase(), chunkBytes: 5 }));
});

import { join } from "node:path";
import { InMemoryArtifactService } from "../../src/index.js";
import { FileArtifactService } from "../../src/artifacts/file/index.js";
import { describeArtifactServiceConformance } from "../support/artifact-service-conformance.js";
import { tempDir } from "../support/temp-dir.js";

describeArtifactServiceConformance("InMemoryArtifactService", async () => new InMemoryArtifactService());

const dir = tempDir();
let rootCounter = 0;
describeArtifactServiceConformance("FileArtifactService", async () => new FileArtifactService({ root: join(dir, `artifacts-${++rootCounter}`) }));

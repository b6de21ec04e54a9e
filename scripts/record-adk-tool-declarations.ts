/**
 * Records what `@google/adk` 2.0 tells the model about its tools (see
 * test/tools/adk-tool-declarations.ts) into test/fixtures/adk/tool-declarations.json.
 *
 * Run: `npx tsx scripts/record-adk-tool-declarations.ts` (again after upgrading @google/adk).
 */
import { writeFileSync } from "node:fs";
import { recordToolDeclarations } from "../test/tools/adk-tool-declarations.js";

const target = new URL("../test/fixtures/adk/tool-declarations.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(await recordToolDeclarations("adk"), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);

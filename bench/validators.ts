/**
 * `npm run bench:validators`: the JSON Schema libraries toolsmith could check
 * tool arguments with, side by side in one run (bench/validators/compare.ts
 * says what is measured). `-- --quick` for fewer rounds. Takes a few minutes:
 * the suite's validation tests run once per candidate.
 */
import { printTable } from "./print-table.js";
import { compareValidators } from "./validators/compare.js";

const { rows, failures } = await compareValidators({ quick: process.argv.includes("--quick") });
printTable(rows);
for (const [label, failed] of failures) if (failed.length) console.log(`\n${label} fails:\n${failed.map((name) => `  - ${name}`).join("\n")}`);
console.log(`\nnode ${process.version}, ${process.platform}/${process.arch}`);

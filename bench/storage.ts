/**
 * `npm run bench:storage`: the storage workloads alone (`npm run bench` runs
 * them after the framework workloads). `-- --quick` for fewer iterations.
 */
import { printTable } from "./print-table.js";
import { storageBenchmarks } from "./storage-workloads.js";

printTable(await storageBenchmarks({ quick: process.argv.includes("--quick") }));
console.log(`\nnode ${process.version}, ${process.platform}/${process.arch}`);

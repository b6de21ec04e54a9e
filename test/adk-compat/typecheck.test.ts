import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PENDING } from "./pending.js";

const TSCONFIG = fileURLToPath(new URL("./tsconfig.json", import.meta.url));
const REPOSITORY = fileURLToPath(new URL("../../", import.meta.url));

describe("the ported programs' types", () => {
  it("leaves out of the type check exactly the toolsmith.ts of pending programs", () => {
    const config = JSON.parse(readFileSync(TSCONFIG, "utf8")) as { exclude: string[] };
    expect([...config.exclude].sort()).toEqual(Object.keys(PENDING).map((program) => `programs/${program}/toolsmith.ts`).sort());
  });

  it("type-checks every adk.ts against @google/adk and every other toolsmith.ts against toolsmith, strictly", () => {
    let output = "";
    try {
      execFileSync(process.execPath, [fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url)), "-p", TSCONFIG, "--noEmit"], { cwd: REPOSITORY, encoding: "utf8" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  }, 240_000);
});

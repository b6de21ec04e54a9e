import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { alignDeliberateDifferences, DELIBERATE_DIFFERENCES } from "./deliberate-differences.js";
import { importSpecifiers, withFrameworkImportsNeutral } from "./harness/import-specifiers.js";
import type { RunRecord } from "./harness/record.js";
import { FIXTURES_FOLDER, listPrograms, PROGRAMS_FOLDER, runProgram } from "./harness/run-program.js";
import { installToolsmithHarness } from "./harness/toolsmith-framework.js";
import { PENDING } from "./pending.js";

// Issue 14: an ADK TypeScript program runs on toolsmith by changing its imports. Each program under
// programs/ is ported from ADK's docs or samples; fixtures/ holds what it did on @google/adk 2.0.0
// (record-adk.ts), and toolsmith must do the same.
installToolsmithHarness();
const programs = listPrograms();

function source(program: string, file: string): string {
  return readFileSync(join(PROGRAMS_FOLDER, program, file), "utf8");
}

describe("ADK programs ported to toolsmith", () => {
  it("has at least 25 programs from ADK's docs and samples, each with adk.ts, toolsmith.ts, script.ts and a fixture", () => {
    expect(programs.filter((program) => !program.startsWith("seed-")).length).toBeGreaterThanOrEqual(25);
    for (const program of programs) {
      for (const file of ["adk.ts", "toolsmith.ts", "script.ts"]) expect(existsSync(join(PROGRAMS_FOLDER, program, file)), `${program}/${file}`).toBe(true);
      expect(existsSync(join(FIXTURES_FOLDER, `${program}.json`)), `fixtures/${program}.json: run npx tsx test/adk-compat/record-adk.ts`).toBe(true);
    }
  });

  it("lists only existing programs as pending or deliberately different", () => {
    for (const program of [...Object.keys(PENDING), ...DELIBERATE_DIFFERENCES.map((entry) => entry.program).filter((program) => program !== "*")]) expect(programs).toContain(program);
  });

  it("names a docs/adk-compat.md section that exists for each deliberate difference", () => {
    const compatNotes = readFileSync(new URL("../../docs/adk-compat.md", import.meta.url), "utf8");
    for (const entry of DELIBERATE_DIFFERENCES) expect(compatNotes).toContain(entry.docsSection);
  });

  describe.each(programs)("%s", (program) => {
    it("differs from adk.ts only in the framework's import specifiers", () => {
      const adk = source(program, "adk.ts");
      const toolsmith = source(program, "toolsmith.ts");
      expect(importSpecifiers(adk).some((specifier) => specifier.startsWith("@google/adk"))).toBe(true);
      expect(importSpecifiers(toolsmith).filter((specifier) => specifier.startsWith("@google/adk"))).toEqual([]);
      expect(withFrameworkImportsNeutral(toolsmith, "toolsmith")).toBe(withFrameworkImportsNeutral(adk, "adk"));
    });

    const missingFeature = PENDING[program];
    if (missingFeature !== undefined) {
      it.todo(`runs on toolsmith as on ADK once toolsmith has ${missingFeature}`);
      return;
    }
    it("runs on toolsmith as it ran on ADK (prints, model requests, stored events)", async () => {
      const fixture = JSON.parse(readFileSync(join(FIXTURES_FOLDER, `${program}.json`), "utf8")) as RunRecord;
      const record = await runProgram(program, "toolsmith.ts");
      expect(alignDeliberateDifferences(program, record)).toEqual(alignDeliberateDifferences(program, fixture));
    });
  });
});

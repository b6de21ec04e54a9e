import { createRequire } from "node:module";
import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSkillMdContent } from "../../../src/tools/builtin/index.js";

const AdmZip = createRequire(import.meta.url)("adm-zip") as new () => { addFile(name: string, data: Buffer): void; toBuffer(): Buffer };

/** Whether ADK 2.0 takes this SKILL.md: its zip loader checks the front matter and nothing about a folder. */
function adkTakes(content: string): boolean {
  const zip = new AdmZip();
  zip.addFile("SKILL.md", Buffer.from(content));
  try {
    adk.loadSkillFromZipBuffer(zip.toBuffer());
    return true;
  } catch {
    return false;
  }
}

function oursTakes(content: string): boolean {
  try {
    parseSkillMdContent(content);
    return true;
  } catch (error) {
    expect(error).toMatchObject({ code: "INVALID_SKILL" });
    return false;
  }
}

describe("SKILL.md front matter, fuzzed", () => {
  it("takes exactly the names ADK takes", () => {
    const name = fc.string({ unit: fc.constantFrom("a", "z", "0", "9", "-", "_", "A", " ", ".", "é"), maxLength: 70 });
    const tally = { both: 0, neither: 0 };
    fc.assert(
      fc.property(name, (candidate) => {
        const content = `---\nname: ${JSON.stringify(candidate)}\ndescription: Does a thing.\n---\nSteps.\n`;
        const ours = oursTakes(content);
        expect(ours).toBe(adkTakes(content));
        tally[ours ? "both" : "neither"]++;
      }),
      { numRuns: 600 },
    );
    console.log(`skill name fuzz: 600 names, ${tally.both} taken by both toolsmith and ADK, ${tally.neither} refused by both`);
    expect(tally.both).toBeGreaterThan(20);
  });

  it("takes exactly the description lengths ADK takes (1 to 1024 characters)", () => {
    for (const length of [0, 1, 1023, 1024, 1025, 4000]) {
      const content = `---\nname: ok\ndescription: ${JSON.stringify("d".repeat(length))}\n---\n`;
      expect({ length, ours: oursTakes(content) }).toEqual({ length, ours: adkTakes(content) });
    }
  });

  it("answers any text with a skill or an INVALID_SKILL error, never a crash", () => {
    const piece = fc.constantFrom("---\n", "name: a\n", "description: b\n", ": ", "- x\n", "{", "[", "'", '"', "\t", "\r\n", "\uFEFF", "metadata: 1\n", "license: [1]\n", "&a ", "*a\n", "!!js/function ", "\n");
    const line = fc.constantFrom("name: a\n", "description: b\n", "license: MIT\n", "metadata:\n  k: v\n", "metadata: 1\n", "name: [a]\n", "description: ''\n", "x: &a 1\ny: *a\n", "bad: : :\n", "\t- z\n");
    // Front matter made of real and broken lines, pieces of anything, or arbitrary text.
    const framed = fc.tuple(fc.array(line, { maxLength: 6 }), fc.string({ maxLength: 30 })).map(([lines, body]) => `---\n${lines.join("")}---\n${body}`);
    // A name and a description, then lines that may or may not break them: valid skills every run, not by chance
    // (random lines alone made none in one CI run of 2,000).
    const named = fc.tuple(fc.array(line, { maxLength: 3 }), fc.string({ maxLength: 30 })).map(([lines, body]) => `---\nname: a\ndescription: b\n${lines.join("")}---\n${body}`);
    const text = fc.oneof(framed, named, fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join("")), fc.string({ maxLength: 200 }));
    let taken = 0;
    let refused = 0;
    fc.assert(
      fc.property(text, (content) => {
        if (oursTakes(content)) taken++;
        else refused++;
      }),
      { numRuns: 2000 },
    );
    console.log(`SKILL.md text fuzz: 2000 texts, ${taken} skills, ${refused} refused with INVALID_SKILL, 0 other errors`);
    expect(taken).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});

import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadSkillFromZipBuffer, loadSkillSources } from "../../../src/tools/builtin/index.js";
import { isUnsafeEntryName } from "../../../src/tools/skills/load-skill-zip.js";
import { tempDir } from "../../support/temp-dir.js";
import { reportMakerFiles, skillMd } from "./skill-fixtures.js";

const AdmZip = createRequire(import.meta.url)("adm-zip") as new () => { addFile(name: string, data: Buffer): void; toBuffer(): Buffer };
const dir = tempDir("toolsmith-skill-zips-");

/** Names adm-zip writes unchanged. */
const PLAIN_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\/[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*)*$/;

/**
 * A zip of these entries. adm-zip cleans hostile names as it writes them, so
 * a hostile name is written as a placeholder of the same length and then
 * patched in the archive's bytes (its local header and the central
 * directory): the archive then holds the name exactly, as an attacker's
 * would. Undefined when the placeholder is not found exactly twice (it could
 * also occur in compressed bytes).
 */
function zipOf(files: Record<string, string | Uint8Array>): Buffer {
  const zip = new AdmZip();
  const patches: Array<[string, string]> = [];
  for (const [name, content] of Object.entries(files)) {
    const placeholder = PLAIN_NAME.test(name) ? name : "Z".repeat(Buffer.byteLength(name));
    if (placeholder !== name) patches.push([placeholder, name]);
    zip.addFile(placeholder, Buffer.from(content));
  }
  let bytes = zip.toBuffer();
  for (const [from, to] of patches) bytes = replaceTwice(bytes, Buffer.from(from), Buffer.from(to));
  return bytes;
}

function replaceTwice(bytes: Buffer, from: Buffer, to: Buffer): Buffer {
  const out = Buffer.from(bytes);
  const found: number[] = [];
  for (let at = out.indexOf(from); at >= 0; at = out.indexOf(from, at + 1)) found.push(at);
  if (found.length !== 2) throw new PlaceholderClash();
  for (const at of found) to.copy(out, at);
  return out;
}

/** The placeholder also occurred elsewhere in the archive; the case is skipped. */
class PlaceholderClash extends Error {}

/** The message a user sees when this zip is loaded. */
function zipError(bytes: Uint8Array): string {
  try {
    loadSkillFromZipBuffer(bytes, { source: "skill.zip" });
  } catch (error) {
    expect(error).toMatchObject({ code: "INVALID_SKILL" });
    return (error as Error).message;
  }
  throw new Error("the zip loaded");
}

describe("loading a skill from a zip archive", () => {
  it("reads SKILL.md at the top and the resource folders, as ADK's loadSkillFromZipBuffer does", () => {
    const bytes = zipOf(reportMakerFiles());
    const ours = loadSkillFromZipBuffer(bytes);
    const theirs = adk.loadSkillFromZipBuffer(bytes);
    expect(ours.frontmatter).toEqual({ ...theirs.frontmatter });
    expect(ours.instructions).toBe(theirs.instructions);
    expect(ours.resources!.scripts).toEqual(theirs.resources!.scripts);
    expect(ours.resources!.references).toEqual(theirs.resources!.references);
    expect(Object.keys(ours.resources!.assets!)).toEqual(["logo.png"]);
  });

  it("also takes a zip of the skill's folder, whose name must then be the skill's (ADK finds no SKILL.md there)", () => {
    const inFolder = Object.fromEntries(Object.entries(reportMakerFiles()).map(([path, content]) => [`report-maker/${path}`, content]));
    expect(loadSkillFromZipBuffer(zipOf(inFolder)).resources!.references).toEqual({ "format.md": "Reports are one line: REPORT <count> files." });
    expect(() => adk.loadSkillFromZipBuffer(zipOf(inFolder))).toThrow("SKILL.md not found in zipped filesystem.");
    const renamed = Object.fromEntries(Object.entries(reportMakerFiles()).map(([path, content]) => [`reporter/${path}`, content]));
    expect(zipError(zipOf(renamed))).toBe('The skill at skill.zip:reporter/SKILL.md cannot be loaded: its name "report-maker" is not its folder\'s name "reporter". Rename the folder in the archive or change name: so they match.');
  });

  it("refuses the whole archive when one entry would land outside the skill's folder (zip slip), as ADK does", () => {
    const hostile = ["../evil.sh", "scripts/../../evil.sh", "/etc/cron.d/evil", "C:/evil.bat", "scripts\\..\\..\\evil.sh"];
    const messages = hostile.map((name) => zipError(zipOf({ "SKILL.md": skillMd("name: slip\ndescription: Slips."), [name]: "rm -rf ~" })));
    console.log(messages.join("\n"));
    expect(messages[0]).toBe(
      'The skill at skill.zip cannot be loaded: it holds the entry "../evil.sh", which would land outside the skill\'s folder, so the whole archive is refused. Rebuild the archive with paths relative to the skill\'s folder.',
    );
    for (const [index, name] of hostile.entries()) expect(messages[index]).toContain(`the entry ${JSON.stringify(name)}`);
    expect(() => adk.loadSkillFromZipBuffer(zipOf({ "SKILL.md": skillMd("name: slip\ndescription: Slips."), "../evil.sh": "x" }))).toThrow("Dangerous zip entry ignored: ../evil.sh");
  });

  it("refuses an archive that would unpack to more than 64 MiB before unpacking it, and says what a broken archive is", () => {
    const bomb = zipOf({ "SKILL.md": skillMd("name: bomb\ndescription: Big."), "assets/zeros.bin": new Uint8Array(65 * 1024 * 1024) });
    console.log(`a 65 MiB file of zeros zips to ${bomb.length} bytes`);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(zipError(bomb)).toBe("The skill at skill.zip cannot be loaded: its files would unpack to more than 64 MiB, so it is refused. Keep large data out of the skill.");
    expect(zipError(Buffer.from("not a zip at all"))).toMatch(/^The skill at skill\.zip cannot be loaded: it is not a readable zip archive \(.+\)\.$/);
    expect(zipError(zipOf({ "README.md": "no skill here" }))).toBe(
      "The skill at skill.zip cannot be loaded: there is no SKILL.md at its top or in its one top folder. Zip the skill's folder (or its contents) with SKILL.md inside.",
    );
  });

  it("is a source createDeepAgent takes by path", () => {
    const path = join(dir, "report-maker.zip");
    writeFileSync(path, zipOf(reportMakerFiles()));
    expect(loadSkillSources([path]).map((skill) => skill.frontmatter.name)).toEqual(["report-maker"]);
  });

  it("never admits an entry that could leave the folder, for any name built from hostile pieces (fuzzed)", () => {
    const piece = fc.constantFrom("..", ".", "", "scripts", "references", "a", "C:", "c:", "\\", "..\\..", "%2e%2e", "\0", "~", "/");
    const names = fc.array(piece, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join("/")).filter((name) => name.length > 0);
    let refused = 0;
    let loaded = 0;
    fc.assert(
      fc.property(names, (name) => {
        let bytes: Buffer;
        try {
          bytes = zipOf({ "SKILL.md": skillMd("name: fuzz\ndescription: Fuzzed."), [name]: "payload" });
        } catch (error) {
          fc.pre(!(error instanceof PlaceholderClash));
          throw error;
        }
        try {
          const skill = loadSkillFromZipBuffer(bytes);
          loaded++;
          for (const folder of ["references", "assets", "scripts"] as const) {
            for (const key of Object.keys(skill.resources![folder] ?? {})) {
              expect(key.split("/")).not.toContain("..");
              expect(key.startsWith("/")).toBe(false);
              expect(key).not.toContain("\\");
            }
          }
          expect(isUnsafeEntryName(name)).toBe(false);
        } catch (error) {
          // Refused with the skill error, never a crash.
          expect(error).toMatchObject({ code: "INVALID_SKILL" });
          refused++;
        }
      }),
      { numRuns: 400 },
    );
    console.log(`zip entry fuzz: 400 archives, ${refused} refused, ${loaded} loaded with every resource inside the skill`);
    expect(refused).toBeGreaterThan(50);
  });
});

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import { loadAllSkillsInDir, loadSkillFromDir, loadSkillFromDirSync, loadSkillSources, parseSkillMdContent, validateSkillDir } from "../../../src/tools/builtin/index.js";
import { tempDir } from "../../support/temp-dir.js";
import { reportMakerFiles, skillMd, writeSkill } from "./skill-fixtures.js";

const dir = tempDir("toolsmith-skills-");
let count = 0;
/** A fresh parent folder for each case. */
const parent = () => {
  const path = join(dir, `case-${++count}`);
  mkdirSync(path);
  return path;
};

/** The error a user sees when a skill folder with this SKILL.md is loaded. */
function loadError(folder: string, content: string): string {
  const root = writeSkill(parent(), folder, { "SKILL.md": content });
  try {
    loadSkillFromDirSync(root);
  } catch (error) {
    expect(error).toMatchObject({ name: "ConfigurationError", code: "INVALID_SKILL" });
    return (error as Error).message.replace(root, "<skill>");
  }
  throw new Error("the skill loaded");
}

describe("loading a skill folder", () => {
  it("reads SKILL.md's front matter and instructions and the files of references/, assets/ and scripts/, as ADK's loadSkillFromDir does", async () => {
    const root = writeSkill(parent(), "report-maker", reportMakerFiles());
    const ours = await loadSkillFromDir(root);
    const theirs = await adk.loadSkillFromDir(root);
    expect(ours.frontmatter).toEqual({ ...theirs.frontmatter });
    expect(ours.instructions).toBe(theirs.instructions);
    expect(ours.resources!.references).toEqual(theirs.resources!.references);
    expect(ours.resources!.scripts).toEqual(theirs.resources!.scripts);
    // Binary files stay bytes (ADK keeps a Buffer, which is a Uint8Array).
    expect(Buffer.from(ours.resources!.assets!["logo.png"] as Uint8Array)).toEqual(theirs.resources!.assets!["logo.png"]);
    expect(ours.instructions).toBe("# Report maker\n\n1. Run scripts/report.sh.\n2. Read references/format.md.");
  });

  it("keeps a resource named __proto__ as a file, where assigned it vanished from the skill's resources", async () => {
    const root = writeSkill(parent(), "report-maker", { ...reportMakerFiles(), "references/__proto__": "odd but a file", "scripts/__proto__": "echo odd" });
    const skill = await loadSkillFromDir(root);
    expect(Object.getPrototypeOf(skill.resources!.references)).toBe(Object.prototype);
    expect(skill.resources!.references!["__proto__"]).toBe("odd but a file");
    expect(Object.keys(skill.resources!.scripts!)).toContain("__proto__");
  });

  it("shows each front-matter mistake with a message saying what to fix", () => {
    const cases = {
      "no front matter": loadError("a", "# Just a heading\n"),
      "unclosed": loadError("a", "---\nname: a\ndescription: x\n"),
      "bad YAML": loadError("a", "---\nname: a\ndescription: Use it: now: twice\n---\n"),
      "not a mapping": loadError("a", "---\n- a\n- b\n---\n"),
      "missing name": loadError("a", skillMd("description: Does things.")),
      "bad name": loadError("Bad_Name", skillMd("name: Bad_Name\ndescription: Does things.")),
      "mixed separators": loadError("pdf-tools_x", skillMd("name: pdf-tools_x\ndescription: Does things.")),
      "name not the folder's": loadError("pdf-tools", skillMd("name: pdf-kit\ndescription: Does things.")),
      "missing description": loadError("a", skillMd("name: a")),
      "too-long description": loadError("a", skillMd(`name: a\ndescription: ${"x".repeat(1025)}`)),
      "too-long name": loadError("a".repeat(65), skillMd(`name: ${"a".repeat(65)}\ndescription: x`)),
    };
    console.log(Object.entries(cases).map(([name, message]) => `${name}: ${message}`).join("\n"));
    expect(cases).toEqual({
      "no front matter": "The skill at <skill>/SKILL.md cannot be loaded: it does not start with YAML front matter. Begin the file with a line ---, then name: and description:, then a line ---, then the instructions.",
      unclosed: "The skill at <skill>/SKILL.md cannot be loaded: its front matter is not closed. End the YAML block with a line holding only ---.",
      "bad YAML": expect.stringMatching(/^The skill at <skill>\/SKILL\.md cannot be loaded: its front matter is not valid YAML: .+\. Fix the YAML between the --- lines \(quote values that hold a colon\)\.$/),
      "not a mapping": "The skill at <skill>/SKILL.md cannot be loaded: its front matter is not a YAML mapping. Write fields as name: my-skill and description: What it does.",
      "missing name": "The skill at <skill>/SKILL.md cannot be loaded: its front matter has no name. Add name: followed by the skill's folder name, such as name: pdf-tools.",
      "bad name":
        'The skill at <skill>/SKILL.md cannot be loaded: its name "Bad_Name" is not valid. Use at most 64 lowercase letters and digits, joined by single hyphens (kebab-case, pdf-tools) or single underscores (snake_case, pdf_tools), not both, with no separator at either end.',
      "mixed separators": expect.stringContaining('its name "pdf-tools_x" is not valid'),
      "name not the folder's": 'The skill at <skill>/SKILL.md cannot be loaded: its name "pdf-kit" is not its folder\'s name "pdf-tools". Rename the folder or change name: so they match.',
      "missing description": "The skill at <skill>/SKILL.md cannot be loaded: its front matter has no description. Add description: saying what the skill does and when to use it; it is all the model sees until it loads the skill.",
      "too-long description": "The skill at <skill>/SKILL.md cannot be loaded: its description is 1025 characters long; the limit is 1024. Shorten it and move the detail into the instructions below the front matter.",
      "too-long name": expect.stringContaining(`its name "${"a".repeat(65)}" is not valid. Use at most 64`),
    });
  });

  it("refuses what ADK refuses and takes what it takes, for the same SKILL.md files", async () => {
    const contents = [
      skillMd("name: ok-skill\ndescription: Fine."),
      skillMd("name: ok_skill\ndescription: Fine.\nlicense: MIT\nmetadata:\n  owner: me"),
      skillMd("name: Bad\ndescription: x"),
      skillMd("name: -bad\ndescription: x"),
      skillMd("name: bad--name\ndescription: x"),
      skillMd("name: ok\ndescription: ''"),
      skillMd(`name: ok\ndescription: ${"y".repeat(1024)}`),
      skillMd(`name: ok\ndescription: ${"y".repeat(1025)}`),
      skillMd("name: ok\ndescription: x\ncompatibility: " + "c".repeat(501)),
      skillMd("name: ok\ndescription: x\nmetadata: [1]"),
      "no front matter",
    ];
    const verdicts = contents.map((content) => {
      const name = /name: (\S+)/.exec(content)?.[1] ?? "none";
      const root = writeSkill(parent(), name, { "SKILL.md": content });
      const ours = (() => {
        try {
          loadSkillFromDirSync(root);
          return "loads";
        } catch {
          return "refused";
        }
      })();
      return adk.loadSkillFromDir(root).then(
        () => ({ ours, adk: "loads" }),
        () => ({ ours, adk: "refused" }),
      );
    });
    const results = await Promise.all(verdicts);
    expect(results.map((result) => result.ours)).toEqual(results.map((result) => result.adk));
    expect(results.filter((result) => result.ours === "loads")).toHaveLength(3);
  });

  it("refuses a link that leads out of the skill's folder, so a skill can show only its own files", () => {
    const secret = join(parent(), "secret.txt");
    writeFileSync(secret, "host secret");
    const root = writeSkill(parent(), "leaky", { "SKILL.md": skillMd("name: leaky\ndescription: Leaks.") , "references/inside.md": "fine" });
    symlinkSync(secret, join(root, "references", "secret.md"));
    expect(() => loadSkillFromDirSync(root)).toThrow(`The skill at ${root} cannot be loaded: references/secret.md is a link to ${secret}, outside the skill's folder. Copy the file into the folder instead.`);
    const linkedFolder = writeSkill(parent(), "leaky-folder", { "SKILL.md": skillMd("name: leaky-folder\ndescription: Leaks.") });
    symlinkSync(join(secret, ".."), join(linkedFolder, "assets"));
    expect(() => loadSkillFromDirSync(linkedFolder)).toThrow(/assets is a link to .*, outside the skill's folder/);
    // A link inside the folder is followed.
    const tidy = writeSkill(parent(), "tidy", { "SKILL.md": skillMd("name: tidy\ndescription: Links within."), "references/a.md": "A" });
    symlinkSync(join(tidy, "references", "a.md"), join(tidy, "references", "b.md"));
    expect(loadSkillFromDirSync(tidy).resources!.references).toEqual({ "a.md": "A", "b.md": "A" });
  });

  it("finds every skill under a folder, skipping caches, and throws on a broken one instead of leaving it out as ADK does", async () => {
    const base = parent();
    writeSkill(base, "report-maker", reportMakerFiles());
    writeSkill(join(base, "group"), "notes", { "SKILL.md": skillMd("name: notes\ndescription: Takes notes."), "scripts/__pycache__/x.pyc": "junk", "scripts/x.py": "print(1)" });
    writeSkill(join(base, "node_modules"), "hidden", { "SKILL.md": skillMd("name: hidden\ndescription: Never seen.") });
    const skills = await loadAllSkillsInDir(base);
    expect(Object.keys(skills).sort()).toEqual(["notes", "report-maker"]);
    expect(skills.notes!.resources!.scripts).toEqual({ "x.py": { src: "print(1)" } });
    expect(Object.keys(await adk.loadAllSkillsInDir(base)).sort()).toEqual(["notes", "report-maker"]);

    writeSkill(base, "broken", { "SKILL.md": skillMd("name: broken") });
    await expect(loadAllSkillsInDir(base)).rejects.toThrow(/broken\/SKILL\.md cannot be loaded: its front matter has no description/);
    // ADK logs the broken skill and returns the others.
    expect(Object.keys(await adk.loadAllSkillsInDir(base)).sort()).toEqual(["notes", "report-maker"]);
  });

  it("validates a folder as ADK's validateSkillDir: problems as text, unknown fields named", async () => {
    const good = writeSkill(parent(), "good", { "SKILL.md": skillMd("name: good\ndescription: Fine.\nauthor: me") });
    const bad = writeSkill(parent(), "bad", { "SKILL.md": skillMd("name: other\ndescription: Fine.") });
    expect(await validateSkillDir(good)).toEqual(["Unknown frontmatter fields: [author]"]);
    expect(await adk.validateSkillDir(good)).toEqual(["Unknown frontmatter fields: [author]"]);
    expect(await validateSkillDir(bad)).toEqual([expect.stringContaining('its name "other" is not its folder\'s name "bad"')]);
    expect(await adk.validateSkillDir(bad)).toHaveLength(1);
  });

  it("loads sources for createDeepAgent: a skill folder, a folder of skills, a skill object, and says when a path holds nothing", () => {
    const base = parent();
    const one = writeSkill(base, "report-maker", reportMakerFiles());
    const more = parent();
    writeSkill(more, "notes", { "SKILL.md": skillMd("name: notes\ndescription: Takes notes.") });
    const made = { frontmatter: { name: "inline", description: "Made in code." }, instructions: "Do it." };
    expect(loadSkillSources([one, more, made]).map((skill) => skill.frontmatter.name)).toEqual(["report-maker", "notes", "inline"]);
    expect(() => loadSkillSources([{ frontmatter: { name: "Made In Code", description: "x" }, instructions: "" }])).toThrow(
      'The skill at the skill object named "Made In Code" cannot be loaded: its name "Made In Code" is not valid.',
    );
    expect(() => loadSkillSources([join(base, "missing")])).toThrow(`The skill at ${join(base, "missing")} cannot be loaded: nothing is there. Give the path of a skill's folder, of a folder of skills, or of a skill's .zip file.`);
  });

  it("parses SKILL.md with a byte-order mark, CRLF line ends, and --- inside the body", () => {
    const parsed = parseSkillMdContent("\uFEFF---\r\nname: crlf\r\ndescription: 'Has: a colon'\r\n---\r\nStep one\r\n---\r\nStep two\r\n");
    expect(parsed.frontmatter).toMatchObject({ name: "crlf", description: "Has: a colon", metadata: {} });
    expect(parsed.body).toBe("Step one\r\n---\r\nStep two");
  });
});

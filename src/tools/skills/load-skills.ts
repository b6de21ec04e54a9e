import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { findSkillMd, loadAllSkillsInDirSync, loadSkillFromDirSync } from "./load-skill-dir.js";
import { loadSkillFromZipBuffer } from "./load-skill-zip.js";
import { checkFrontmatter, skillError } from "./parse-skill-md.js";
import type { Skill } from "./skill.js";

/**
 * Where skills come from: a skill's folder, a folder of skill folders (searched
 * as ADK's `loadAllSkillsInDir`), a `.zip` file holding one skill, or a skill
 * loaded already.
 */
export type SkillSource = string | Skill;

/** The skills of every source, loaded now; a source that is missing or holds a broken skill throws (`INVALID_SKILL`). */
export function loadSkillSources(sources: readonly SkillSource[]): Skill[] {
  return sources.flatMap((source) => {
    // A skill made in code is held to the same front-matter rules as one read from a file.
    if (typeof source !== "string") return [{ ...source, frontmatter: checkFrontmatter(source.frontmatter, `the skill object named ${JSON.stringify(source.frontmatter?.name)}`) }];
    const path = resolve(source);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) throw skillError(path, "nothing is there. Give the path of a skill's folder, of a folder of skills, or of a skill's .zip file.");
    if (stat.isFile() && path.toLowerCase().endsWith(".zip")) return [loadSkillFromZipBuffer(readFileSync(path), { source: path })];
    if (!stat.isDirectory()) throw skillError(path, "it is neither a folder nor a .zip file.");
    return findSkillMd(path) ? [loadSkillFromDirSync(path)] : Object.values(loadAllSkillsInDirSync(path));
  });
}

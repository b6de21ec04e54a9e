import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { parseSkillMdContent, skillError } from "./parse-skill-md.js";
import { RESOURCE_FOLDERS, type Skill } from "./skill.js";
import { isIgnored, MAX_SKILL_BYTES, resourcesFromFiles } from "./skill-files.js";

/** The fields ADK's `validateSkillDir` knows; others are kept but reported by it. */
const KNOWN_FIELDS = new Set(["name", "description", "license", "allowed-tools", "allowedTools", "metadata", "compatibility"]);

/**
 * Loads one skill folder: `SKILL.md` (any letter case, as ADK), whose name must
 * be the folder's, and the files of `references/`, `assets/` and `scripts/`.
 * A link that leads outside the folder is refused, so a skill can only ever
 * show its own files. Throws a `ConfigurationError` (`INVALID_SKILL`).
 */
export function loadSkillFromDirSync(skillDir: string): Skill {
  const root = resolve(skillDir);
  const skillMd = findSkillMd(root);
  if (!skillMd) throw skillError(root, `there is no SKILL.md in it. A skill is a folder holding a SKILL.md with name: and description: front matter.`);
  const { frontmatter, body } = parseSkillMdContent(readFileSync(skillMd, "utf8"), skillMd);
  const folderName = basename(root);
  if (frontmatter.name !== folderName) {
    throw skillError(skillMd, `its name ${JSON.stringify(frontmatter.name)} is not its folder's name ${JSON.stringify(folderName)}. Rename the folder or change name: so they match.`);
  }
  return { frontmatter, instructions: body, resources: resourcesFromFiles(readSkillFiles(root), root) };
}

/** {@link loadSkillFromDirSync}, with ADK's name and promise. */
export async function loadSkillFromDir(skillDir: string): Promise<Skill> {
  return loadSkillFromDirSync(skillDir);
}

/**
 * Every skill under a folder, by name: each folder holding a `SKILL.md` is a
 * skill (and is not searched further); others are searched. Unlike ADK, which
 * logs a broken skill and leaves it out, a broken skill or two skills of one
 * name throw, so no skill goes missing unnoticed.
 */
export function loadAllSkillsInDirSync(skillsBasePath: string): Record<string, Skill> {
  const base = resolve(skillsBasePath);
  if (!isDirectory(base)) throw skillError(base, "it is not a folder. Give a folder that holds skill folders, or a skill folder itself.");
  const skills: Record<string, Skill> = {};
  const scan = (directory: string) => {
    if (directory !== base && findSkillMd(directory)) {
      const skill = loadSkillFromDirSync(directory);
      if (Object.hasOwn(skills, skill.frontmatter.name)) throw skillError(directory, `another skill under ${base} is also named ${JSON.stringify(skill.frontmatter.name)}. Give each skill its own name.`);
      skills[skill.frontmatter.name] = skill;
      return;
    }
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory() && !isIgnored(entry.name, true)) scan(join(directory, entry.name));
    }
  };
  scan(base);
  return skills;
}

/** {@link loadAllSkillsInDirSync}, with ADK's name and promise. */
export async function loadAllSkillsInDir(skillsBasePath: string): Promise<Record<string, Skill>> {
  return loadAllSkillsInDirSync(skillsBasePath);
}

/** What is wrong with a skill folder, as ADK's `validateSkillDir`: an empty list when it loads and has no unknown fields. */
export async function validateSkillDir(skillDir: string): Promise<string[]> {
  try {
    const skill = loadSkillFromDirSync(skillDir);
    const unknown = Object.keys(skill.frontmatter).filter((field) => !KNOWN_FIELDS.has(field));
    return unknown.length > 0 ? [`Unknown frontmatter fields: [${unknown.sort().join(", ")}]`] : [];
  } catch (error) {
    return [(error as Error).message];
  }
}

/** Whether a folder holds a `SKILL.md` in any letter case, and which. */
export function findSkillMd(directory: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return undefined;
  }
  const name = names.includes("SKILL.md") ? "SKILL.md" : names.find((candidate) => candidate.toLowerCase() === "skill.md");
  return name !== undefined && statSync(join(directory, name), { throwIfNoEntry: false })?.isFile() ? join(directory, name) : undefined;
}

/** Every file of the skill's resource folders, by path relative to the skill (with `/`), links inside the folder followed. */
function* readSkillFiles(root: string): Generator<[string, Uint8Array]> {
  const realRoot = realpathSync(root);
  let total = 0;
  const walk = function* (directory: string): Generator<[string, Uint8Array]> {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      // At the top, only the resource folders are read; SKILL.md was read already.
      if (directory === root && !(RESOURCE_FOLDERS as readonly string[]).includes(entry.name)) continue;
      const path = join(directory, entry.name);
      const shown = relative(root, path).split(sep).join("/");
      let stat = lstatSync(path);
      if (stat.isSymbolicLink()) {
        const target = realpathOrUndefined(path);
        if (target === undefined || (target !== realRoot && !target.startsWith(realRoot + sep))) {
          throw skillError(root, `${shown} is a link to ${target ?? "nothing"}, outside the skill's folder. Copy the file into the folder instead.`);
        }
        stat = statSync(path);
      }
      if (isIgnored(entry.name, stat.isDirectory())) continue;
      if (stat.isDirectory()) yield* walk(path);
      else if (stat.isFile()) {
        total += stat.size;
        if (total > MAX_SKILL_BYTES) throw skillError(root, `its files hold more than ${MAX_SKILL_BYTES / 1024 ** 2} MiB. Keep large data out of the skill and let its scripts fetch or read it.`);
        yield [shown, readFileSync(path)];
      }
    }
  };
  yield* walk(root);
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

import { posix } from "node:path";
import { RESOURCE_FOLDERS, type ResourceFolder, type Skill } from "./skill.js";

/** A resource found, or why not (an error code and message in ADK's result shape). */
export type ResourceLookup = { ok: true; path: string; folder: ResourceFolder; content: string | Uint8Array } | { ok: false; error: string; error_code: "INVALID_RESOURCE_PATH" | "RESOURCE_NOT_FOUND" };

/**
 * One of a skill's resources by its path in the skill's folder
 * (`references/guide.md`). Only the skill's own loaded files can be named:
 * the path is normalised, must stay in `references/`, `assets/` or
 * `scripts/`, and is looked up among the files loaded, never on disk, so no
 * path reaches anything else.
 */
export function findSkillResource(skill: Skill, requestedPath: string): ResourceLookup {
  const path = posix.normalize(requestedPath.trim());
  const slash = path.indexOf("/");
  const folder = path.slice(0, slash);
  if (slash <= 0 || !(RESOURCE_FOLDERS as readonly string[]).includes(folder) || path.endsWith("/")) {
    return { ok: false, error: "Path must start with 'references/', 'assets/', or 'scripts/' and name a file, such as references/guide.md.", error_code: "INVALID_RESOURCE_PATH" };
  }
  const name = path.slice(slash + 1);
  const files = skill.resources?.[folder as ResourceFolder] as Record<string, unknown> | undefined;
  const found = files !== undefined && Object.hasOwn(files, name) ? files[name] : undefined;
  const content = folder === "scripts" ? (found as { src?: unknown } | undefined)?.src : found;
  if (typeof content !== "string" && !(content instanceof Uint8Array)) {
    return { ok: false, error: `Resource '${path}' not found in skill '${skill.frontmatter.name}'. Its files: ${listResources(skill).join(", ") || "none"}.`, error_code: "RESOURCE_NOT_FOUND" };
  }
  return { ok: true, path, folder: folder as ResourceFolder, content };
}

/** Every resource of a skill by its path in the skill's folder, sorted. */
export function listResources(skill: Skill): string[] {
  return RESOURCE_FOLDERS.flatMap((folder) => Object.keys(skill.resources?.[folder] ?? {}).map((name) => `${folder}/${name}`)).sort();
}

/** Every resource of a skill with its content, by path in the skill's folder: what a script run is given. */
export function skillFiles(skill: Skill): Map<string, string | Uint8Array> {
  const files = new Map<string, string | Uint8Array>();
  for (const folder of RESOURCE_FOLDERS) {
    for (const [name, content] of Object.entries(skill.resources?.[folder] ?? {})) {
      files.set(`${folder}/${name}`, typeof content === "object" && !(content instanceof Uint8Array) ? content.src : content);
    }
  }
  return files;
}

import { isUtf8 } from "node:buffer";
import { setOwnField } from "../../content/own-field.js";
import { RESOURCE_FOLDERS, type Resources, type Script } from "./skill.js";
import { skillError } from "./parse-skill-md.js";

/** The most a skill's files may hold together, so a huge folder or a zip bomb is refused rather than read into memory. */
export const MAX_SKILL_BYTES = 64 * 1024 * 1024;

/** Folders a skill loader passes over, as ADK's does (caches, environments, version control). */
export const IGNORED_DIRECTORIES = new Set(["__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "node_modules", "coverage", "venv", ".venv", "env", ".env", ".git", ".vscode", ".idea"]);

/** File endings a skill loader passes over, as ADK's does (compiled Python, build caches). */
export const IGNORED_EXTENSIONS = [".pyc", ".pyo", ".pyd", ".tsbuildinfo", ".DS_Store"];

/** Whether a file or folder name (one path segment) is passed over when a skill is loaded. */
export function isIgnored(segment: string, isDirectory: boolean): boolean {
  return isDirectory ? IGNORED_DIRECTORIES.has(segment) : IGNORED_EXTENSIONS.some((ending) => segment.endsWith(ending));
}

/**
 * A skill's resources from its files, given by path relative to the skill's
 * folder (`scripts/run.sh`): text as strings, other bytes as they are, files
 * outside the three resource folders left out. A script must be text.
 */
export function resourcesFromFiles(files: Iterable<[string, Uint8Array]>, source: string): Resources {
  const resources: Required<Resources> = { references: {}, assets: {}, scripts: {} };
  for (const [path, bytes] of files) {
    const slash = path.indexOf("/");
    const folder = path.slice(0, slash) as (typeof RESOURCE_FOLDERS)[number];
    const name = path.slice(slash + 1);
    if (slash < 0 || !RESOURCE_FOLDERS.includes(folder) || name === "") continue;
    const content = isUtf8(bytes) ? Buffer.from(bytes).toString("utf8") : bytes;
    if (folder === "scripts") {
      if (typeof content !== "string") throw skillError(source, `its script ${path} is not UTF-8 text. Scripts are run from their source; keep compiled files out of scripts/.`);
      setOwnField(resources.scripts as Record<string, Script>, name, { src: content });
    } else {
      // A file named "__proto__" stays a resource, where assigned it vanished.
      setOwnField(resources[folder], name, content);
    }
  }
  return resources;
}

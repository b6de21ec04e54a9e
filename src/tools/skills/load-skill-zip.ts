import { posix, win32 } from "node:path";
import { requireOptionalPeer } from "../../platform/load-optional-peer.js";
import { parseSkillMdContent, skillError } from "./parse-skill-md.js";
import type { Skill } from "./skill.js";
import { isIgnored, MAX_SKILL_BYTES, resourcesFromFiles } from "./skill-files.js";

/** The part of adm-zip the loader uses. */
interface ZipEntry {
  entryName: string;
  isDirectory: boolean;
  header: { size: number };
  getData(): Buffer;
}
type AdmZipConstructor = new (buffer: Buffer) => { getEntries(): ZipEntry[] };

/** Options of {@link loadSkillFromZipBuffer}. */
export interface ZipSkillOptions {
  /** Names the archive in errors (its file path, say); default `"the zip archive"`. */
  source?: string;
}

/**
 * Loads a skill from a zip archive in memory, as ADK's `loadSkillFromZipBuffer`:
 * `SKILL.md` at the archive's top, or inside its one top folder (whose name
 * must then be the skill's). The whole archive is refused when any entry
 * would land outside the skill's folder (`../`, an absolute path, a drive
 * letter, a backslash) or is not one plain path (`./`, `a//b`), or when its files would unpack to more than
 * {@link MAX_SKILL_BYTES}. Nothing is written to disk. Needs the `adm-zip`
 * package (an optional peer).
 */
export function loadSkillFromZipBuffer(zipBuffer: Uint8Array, options: ZipSkillOptions = {}): Skill {
  const source = options.source ?? "the zip archive";
  const AdmZip = requireOptionalPeer<AdmZipConstructor>({ packageName: "adm-zip", neededFor: "Loading a skill from a zip archive" });
  let entries: ZipEntry[];
  try {
    entries = new AdmZip(Buffer.from(zipBuffer.buffer, zipBuffer.byteOffset, zipBuffer.byteLength)).getEntries();
  } catch (error) {
    throw skillError(source, `it is not a readable zip archive (${(error as Error).message}).`);
  }
  for (const entry of entries) {
    if (isUnsafeEntryName(entry.entryName)) {
      throw skillError(source, `it holds the entry ${JSON.stringify(entry.entryName)}, which would land outside the skill's folder, so the whole archive is refused. Rebuild the archive with paths relative to the skill's folder.`);
    }
  }
  const files = entries.filter((entry) => !entry.isDirectory && !entry.entryName.split("/").some((segment, index, all) => isIgnored(segment, index < all.length - 1)));
  const declared = files.reduce((sum, entry) => sum + entry.header.size, 0);
  if (declared > MAX_SKILL_BYTES) throw tooLarge(source);
  const prefix = skillPrefix(files, source);
  const skillMd = files.find((entry) => entry.entryName.toLowerCase() === `${prefix}skill.md`.toLowerCase() && entry.entryName.startsWith(prefix))!;
  const where = `${source}:${skillMd.entryName}`;
  const { frontmatter, body } = parseSkillMdContent(skillMd.getData().toString("utf8"), where);
  const folder = prefix.slice(0, -1);
  if (folder && frontmatter.name !== folder) {
    throw skillError(where, `its name ${JSON.stringify(frontmatter.name)} is not its folder's name ${JSON.stringify(folder)}. Rename the folder in the archive or change name: so they match.`);
  }
  let total = 0;
  const read = function* (): Generator<[string, Uint8Array]> {
    for (const entry of files) {
      if (!entry.entryName.startsWith(prefix) || entry === skillMd) continue;
      const data = entry.getData();
      // The sizes in the headers are the archive's word; what unpacks is counted too.
      total += data.length;
      if (total > MAX_SKILL_BYTES) throw tooLarge(source);
      yield [entry.entryName.slice(prefix.length), data];
    }
  };
  return { frontmatter, instructions: body, resources: resourcesFromFiles(read(), source) };
}

/** Whether a zip entry's name could place a file anywhere but inside the folder it is unpacked into. */
export function isUnsafeEntryName(name: string): boolean {
  if (name === "" || name.includes("\0") || name.includes("\\")) return true;
  if (posix.isAbsolute(name) || win32.isAbsolute(name) || /^[A-Za-z]:/.test(name)) return true;
  // "." and empty segments ("a//b") are refused too: they name no other place, but a resource's name must be one plain path.
  const segments = name.endsWith("/") ? name.slice(0, -1).split("/") : name.split("/");
  return segments.some((segment) => segment === ".." || segment === "." || segment === "");
}

/** `""` when SKILL.md is at the archive's top, `"folder/"` when it is inside the archive's one top folder. */
function skillPrefix(files: ZipEntry[], source: string): string {
  if (files.some((entry) => entry.entryName.toLowerCase() === "skill.md")) return "";
  const tops = new Set(files.map((entry) => entry.entryName.split("/")[0]!));
  const [top] = tops;
  if (tops.size === 1 && files.some((entry) => entry.entryName.toLowerCase() === `${top}/skill.md`.toLowerCase())) return `${top}/`;
  throw skillError(source, "there is no SKILL.md at its top or in its one top folder. Zip the skill's folder (or its contents) with SKILL.md inside.");
}

function tooLarge(source: string) {
  return skillError(source, `its files would unpack to more than ${MAX_SKILL_BYTES / 1024 ** 2} MiB, so it is refused. Keep large data out of the skill.`);
}

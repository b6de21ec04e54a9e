import { ConfigurationError } from "../../errors/toolsmith-error.js";
import { requireOptionalPeer } from "../../platform/load-optional-peer.js";
import { SKILL_LIMITS, SKILL_NAME_PATTERN, type Frontmatter } from "./skill.js";

/** The part of js-yaml skills use. */
interface YamlParser {
  load(text: string): unknown;
}

/** Front matter: a `---` line, the YAML, a closing `---` line; then the body. A leading byte-order mark is allowed. */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/**
 * Splits `SKILL.md` into its checked front matter and its body (the
 * instructions), as ADK's `parseSkillMdContent`. `source` names the file in
 * errors. Throws a `ConfigurationError` (`INVALID_SKILL`) saying what to fix:
 * missing or unclosed front matter, YAML that does not parse, a missing or
 * badly formed name, a missing or too long description.
 */
export function parseSkillMdContent(content: string, source = "SKILL.md"): { frontmatter: Frontmatter; body: string } {
  const match = FRONT_MATTER.exec(content);
  if (!match) {
    const opened = /^\uFEFF?---[ \t]*\r?\n/.test(content);
    throw skillError(
      source,
      opened
        ? "its front matter is not closed. End the YAML block with a line holding only ---."
        : "it does not start with YAML front matter. Begin the file with a line ---, then name: and description:, then a line ---, then the instructions.",
    );
  }
  const yaml = requireOptionalPeer<YamlParser>({ packageName: "js-yaml", neededFor: "Reading a skill's SKILL.md" });
  let raw: unknown;
  try {
    raw = yaml.load(match[1]!);
  } catch (error) {
    throw skillError(source, `its front matter is not valid YAML: ${String((error as Error).message).split("\n")[0]}. Fix the YAML between the --- lines (quote values that hold a colon).`);
  }
  return { frontmatter: checkFrontmatter(raw, source), body: content.slice(match[0].length).trim() };
}

/** The front matter's fields, checked against ADK's rules; `allowed-tools` is also given as `allowedTools`. */
export function checkFrontmatter(raw: unknown, source: string): Frontmatter {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw skillError(source, "its front matter is not a YAML mapping. Write fields as name: my-skill and description: What it does.");
  }
  const fields = raw as Record<string, unknown>;
  const name = fields.name;
  if (name === undefined || name === null || name === "") throw skillError(source, "its front matter has no name. Add name: followed by the skill's folder name, such as name: pdf-tools.");
  if (typeof name !== "string") throw skillError(source, `its name is ${JSON.stringify(name)}, not text. Write the folder's name, such as name: pdf-tools.`);
  if (name.length > SKILL_LIMITS.nameChars || !SKILL_NAME_PATTERN.test(name)) {
    throw skillError(
      source,
      `its name ${JSON.stringify(name)} is not valid. Use at most ${SKILL_LIMITS.nameChars} lowercase letters and digits, joined by single hyphens (kebab-case, pdf-tools) or single underscores (snake_case, pdf_tools), not both, with no separator at either end.`,
    );
  }
  const description = fields.description;
  if (typeof description !== "string" || description.trim() === "") {
    throw skillError(source, "its front matter has no description. Add description: saying what the skill does and when to use it; it is all the model sees until it loads the skill.");
  }
  if (description.length > SKILL_LIMITS.descriptionChars) {
    throw skillError(source, `its description is ${description.length} characters long; the limit is ${SKILL_LIMITS.descriptionChars}. Shorten it and move the detail into the instructions below the front matter.`);
  }
  for (const field of ["license", "compatibility", "allowed-tools"]) {
    if (fields[field] !== undefined && typeof fields[field] !== "string") throw skillError(source, `its ${field} is ${JSON.stringify(fields[field])}; write it as text.`);
  }
  if (typeof fields.compatibility === "string" && fields.compatibility.length > SKILL_LIMITS.compatibilityChars) {
    throw skillError(source, `its compatibility is ${fields.compatibility.length} characters long; the limit is ${SKILL_LIMITS.compatibilityChars}.`);
  }
  const metadata = fields.metadata ?? {};
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) throw skillError(source, "its metadata is not a mapping. Write metadata: followed by indented key: value lines.");
  const frontmatter: Frontmatter = { ...fields, name, description, metadata: metadata as Record<string, unknown> };
  if (typeof fields["allowed-tools"] === "string") frontmatter.allowedTools = fields["allowed-tools"];
  return frontmatter;
}

/** A skill that cannot be loaded, and why. */
export function skillError(source: string, problem: string): ConfigurationError {
  return new ConfigurationError("INVALID_SKILL", `The skill at ${source} cannot be loaded: ${problem}`);
}

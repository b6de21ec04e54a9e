/**
 * A skill as ADK 2 has it: a folder with a `SKILL.md` (YAML front matter, then
 * instructions) and optional `references/`, `assets/` and `scripts/`.
 */

/** A skill's name: lowercase kebab-case or snake_case, not mixed, with no leading, trailing or doubled separators (ADK's rule). */
export const SKILL_NAME_PATTERN = /^([a-z0-9]+(-[a-z0-9]+)*|[a-z0-9]+(_[a-z0-9]+)*)$/;

/** The longest name, description and compatibility note a skill may have (ADK's and the Agent Skills format's limits). */
export const SKILL_LIMITS = { nameChars: 64, descriptionChars: 1024, compatibilityChars: 500 } as const;

/** What `SKILL.md`'s front matter says; unknown fields are kept, as ADK keeps them. */
export interface Frontmatter {
  name: string;
  /** When to use the skill: all the model sees of it until it loads it. */
  description: string;
  license?: string;
  compatibility?: string;
  /** The `allowed-tools` field. */
  allowedTools?: string;
  metadata?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A script's source, as ADK wraps it. */
export interface Script {
  src: string;
}

/** A skill's files besides `SKILL.md`, by path inside their folder (`"guide.md"` is `references/guide.md`); binary files are bytes. */
export interface Resources {
  references?: Record<string, string | Uint8Array>;
  assets?: Record<string, string | Uint8Array>;
  scripts?: Record<string, Script>;
}

/** A loaded skill. */
export interface Skill {
  frontmatter: Frontmatter;
  /** `SKILL.md`'s body: what the model reads when it loads the skill. */
  instructions: string;
  resources?: Resources;
}

/** The folders a skill's resources live in. */
export const RESOURCE_FOLDERS = ["references", "assets", "scripts"] as const;

/** One of {@link RESOURCE_FOLDERS}. */
export type ResourceFolder = (typeof RESOURCE_FOLDERS)[number];

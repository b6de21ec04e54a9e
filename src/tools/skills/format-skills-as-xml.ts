import type { Frontmatter, Skill } from "./skill.js";

/** Markup characters escaped, as ADK escapes them, so a description cannot close the list early. */
function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#039;");
}

/** The skills' names and descriptions in ADK's `<available_skills>` block, which the model reads to choose one. */
export function formatSkillsAsXml(skills: ReadonlyArray<Skill | Frontmatter>): string {
  const lines = ["<available_skills>"];
  for (const item of skills) {
    const frontmatter = "frontmatter" in item && typeof item.frontmatter === "object" ? (item as Skill).frontmatter : (item as Frontmatter);
    lines.push("  <skill>", `    <name>${escapeXml(frontmatter.name)}</name>`, `    <description>${escapeXml(frontmatter.description)}</description>`, "  </skill>");
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

/**
 * Any text made into an identifier, as ADK's agent registry names agents and tools it finds: each character but
 * ASCII letters, digits and `_` becomes `_`, runs of `_` become one, `_` is trimmed from both ends, and a name
 * that would start with a digit gets a leading `_`. Text with no letter or digit gives `""`.
 *
 * @example
 * ```ts
 * import { cleanName } from "toolsmith";
 *
 * cleanName("Weather agent (v2)"); // "Weather_agent_v2"
 * cleanName("3d-printer"); // "_3d_printer"
 * ```
 */
export function cleanName(name: string): string {
  let clean = name.replace(/[^a-zA-Z0-9_]/g, "_").replace(/_+/g, "_").replace(/^_+|_+$/g, "");
  if (clean && !/^[a-zA-Z_]/.test(clean)) clean = `_${clean}`;
  return clean;
}

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigurationError } from "../errors/toolsmith-error.js";

/**
 * toolsmith's own package folder. Found by walking up from this module, so it
 * is right wherever the code runs from: `src/` in a checkout, `dist/` or a
 * bundled chunk in an installed package.
 */
export const PACKAGE_ROOT: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** toolsmith's version, from its package.json. */
export const TOOLSMITH_VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "toolsmith") return dir;
    if (dirname(dir) === dir) throw new ConfigurationError("PACKAGE_DAMAGED", `toolsmith cannot find its own package.json above ${start}; reinstall the package (npm install toolsmith).`);
  }
}

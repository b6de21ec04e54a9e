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
  const found = nearestPackage(start, (manifest) => manifest.name === "toolsmith");
  if (!found) throw new ConfigurationError("PACKAGE_DAMAGED", `toolsmith cannot find its own package.json above ${start}; reinstall the package (npm install toolsmith).`);
  return found.dir;
}

/** The fields of a package.json this package reads. */
export interface PackageManifest {
  name?: string;
  version?: string;
  type?: string;
}

/**
 * The nearest folder at or above `start` whose package.json `accepts` (any package.json by default), with that
 * manifest read once; `undefined` when none does. A package.json that is not JSON reads as `{}` (Node names it when
 * it loads a module of that package).
 */
export function nearestPackage(start: string, accepts: (manifest: PackageManifest) => boolean = () => true): { dir: string; manifest: PackageManifest } | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (existsSync(path)) {
      const manifest = readManifest(path);
      if (accepts(manifest)) return { dir, manifest };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function readManifest(path: string): PackageManifest {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as PackageManifest;
  } catch {
    return {};
  }
}

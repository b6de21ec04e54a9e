import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A package install_packages can load: Pyodide package names, or a wheel's absolute path. */
export interface LoadablePackage {
  name: string;
  paths: string[];
}

/** What install_packages resolved: what it can load, and what it cannot with why. */
export interface ResolvedPackages {
  loadable: LoadablePackage[];
  refused: { package: string; success: false; error: string }[];
}

interface LockPackage {
  name: string;
  file_name: string;
  sha256: string;
  depends: string[];
}

/** Package names as pip compares them: case and `-`, `_`, `.` do not matter. */
function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/[-_.]+/g, "-");
}

/**
 * Finds each requested package in a local directory: a package of Pyodide's
 * lock file (with the wheels of all it depends on), or any wheel named after it
 * (pure Python, `py3-none-any`, or built for Pyodide). Nothing is looked up
 * online; a package not found says how to make it available.
 */
export function resolvePackages(requested: readonly string[], options: { packageDirectory?: string; lockFilePath: string }): ResolvedPackages {
  const resolved: ResolvedPackages = { loadable: [], refused: [] };
  const directory = options.packageDirectory;
  if (!directory) {
    for (const name of requested) {
      resolved.refused.push({
        package: name,
        success: false,
        error:
          "Packages are installed only from a local directory of wheels, and none is configured: nothing is downloaded. " +
          "Ask the developer to set the wasm execution's packageDirectory to a folder of .whl files (Pyodide's full distribution, or pure-Python wheels from `pip download --only-binary=:all: --python-version 3.14 --platform any <name>`). Until then, use the standard library.",
      });
    }
    return resolved;
  }
  const lock = JSON.parse(readFileSync(options.lockFilePath, "utf8")) as { packages: Record<string, LockPackage> };
  const byName = new Map(Object.entries(lock.packages).map(([key, value]) => [normalize(key), value]));
  const wheels = existsSync(directory) ? readdirSync(directory).filter((file) => file.endsWith(".whl")) : [];
  for (const name of requested) {
    const wanted = normalize(name);
    if (!/^[a-z0-9][a-z0-9-]*$/.test(wanted)) {
      resolved.refused.push({ package: name, success: false, error: `${JSON.stringify(name)} is not a package name. Give a name such as "attrs", without versions or URLs.` });
      continue;
    }
    const locked = byName.get(wanted);
    if (locked) {
      const closure = dependencyClosure(locked, byName);
      const missing = closure.filter((entry) => !existsSync(join(directory, entry.file_name)));
      // Pyodide checks a wheel's checksum only when it downloads one: a local wheel is checked here, against its lock file.
      const altered = missing.length > 0 ? [] : closure.filter((entry) => createHash("sha256").update(readFileSync(join(directory, entry.file_name))).digest("hex") !== entry.sha256);
      if (missing.length > 0) {
        resolved.refused.push({ package: name, success: false, error: `${name} needs ${missing.map((entry) => entry.file_name).join(", ")}, not found in ${directory}. Put those wheels there (from Pyodide's full distribution of the same version); nothing is downloaded.` });
      } else if (altered.length > 0) {
        resolved.refused.push({ package: name, success: false, error: `${altered.map((entry) => entry.file_name).join(", ")} in ${directory} does not match the sha256 in Pyodide's lock file: the file is damaged, altered, or from another Pyodide version. Replace it with the wheel of Pyodide's own distribution.` });
      } else resolved.loadable.push({ name, paths: [locked.name] });
      continue;
    }
    const wheel = wheels.filter((file) => normalize(file.split("-")[0] ?? "") === wanted).sort().at(-1);
    if (wheel) resolved.loadable.push({ name, paths: [join(directory, wheel)] });
    else resolved.refused.push({ package: name, success: false, error: `${name} is not in ${directory}, and nothing is downloaded. Put its wheel (and its dependencies') there, or do without it.` });
  }
  return resolved;
}

function dependencyClosure(root: LockPackage, byName: Map<string, LockPackage>): LockPackage[] {
  const seen = new Map<string, LockPackage>();
  const visit = (entry: LockPackage) => {
    if (seen.has(entry.name)) return;
    seen.set(entry.name, entry);
    for (const dependency of entry.depends) {
      const found = byName.get(normalize(dependency));
      if (found) visit(found);
    }
  };
  visit(root);
  return [...seen.values()];
}

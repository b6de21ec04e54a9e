import { access, constants } from "node:fs/promises";
import { delimiter, join } from "node:path";

let located: Promise<string | undefined> | undefined;

/**
 * The `rg` binary: the one on the PATH when there is one (as seed 002 does),
 * else the one shipped by the optional `@vscode/ripgrep` package (1.18.0 and
 * later carry it inside the package), else `undefined`, in which case the
 * tools search in JavaScript.
 */
export function findRipgrep(): Promise<string | undefined> {
  located ??= (async () => (await ripgrepOnPath(process.env.PATH)) ?? (await packagedRipgrep()))();
  return located;
}

/** An executable `rg` in one of the PATH's directories. */
export async function ripgrepOnPath(path: string | undefined): Promise<string | undefined> {
  for (const directory of (path ?? "").split(delimiter)) {
    if (!directory) continue;
    const candidate = join(directory, process.platform === "win32" ? "rg.exe" : "rg");
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return undefined;
}

async function packagedRipgrep(): Promise<string | undefined> {
  try {
    const module = (await import("@vscode/ripgrep")) as { rgPath?: string };
    if (!module.rgPath) return undefined;
    await access(module.rgPath, constants.X_OK);
    return module.rgPath;
  } catch {
    return undefined;
  }
}

/** How the search tools find ripgrep: `"auto"` (default) uses `rg` from the PATH or `@vscode/ripgrep`, `false` never, a string is the binary's path. */
export type RipgrepSetting = "auto" | false | string;

/** The binary to use for a setting, or `undefined` for the JavaScript search. */
export async function resolveRipgrep(setting: RipgrepSetting = "auto"): Promise<string | undefined> {
  if (setting === false) return undefined;
  if (setting === "auto") return findRipgrep();
  return setting;
}

import { access, constants } from "node:fs/promises";

let located: Promise<string | undefined> | undefined;

/**
 * The `rg` binary shipped by the optional `@vscode/ripgrep` package (1.18.0
 * and later carry it inside the package), or `undefined` when it is not
 * installed, in which case the tools search in JavaScript.
 */
export function findRipgrep(): Promise<string | undefined> {
  located ??= (async () => {
    try {
      const module = (await import("@vscode/ripgrep")) as { rgPath?: string };
      if (!module.rgPath) return undefined;
      await access(module.rgPath, constants.X_OK);
      return module.rgPath;
    } catch {
      return undefined;
    }
  })();
  return located;
}

/** How the search tools find ripgrep: `"auto"` (default) uses `@vscode/ripgrep` if installed, `false` never, a string is the binary's path. */
export type RipgrepSetting = "auto" | false | string;

/** The binary to use for a setting, or `undefined` for the JavaScript search. */
export async function resolveRipgrep(setting: RipgrepSetting = "auto"): Promise<string | undefined> {
  if (setting === false) return undefined;
  if (setting === "auto") return findRipgrep();
  return setting;
}

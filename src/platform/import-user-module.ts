import { register } from "node:module";
import { dirname, extname } from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { nearestPackage } from "./package-root.js";

const TYPESCRIPT_EXTENSIONS = new Set([".ts", ".mts", ".cts"]);

/** How this process loads TypeScript: Node's own type stripping, tsx, or not at all. */
export type TypeScriptLoader = "node" | "tsx" | "none";

let tsxRegistration: Promise<TypeScriptLoader> | undefined;

/**
 * How TypeScript modules load in this process. Node's own type stripping is
 * used where the running Node has it on (22.18 and later, 23.6 and later, or an
 * earlier 22 started with `--experimental-strip-types`); otherwise tsx, an
 * optional peer, is registered the first time it is needed. Without either,
 * `"none"`.
 */
export async function typeScriptLoader(): Promise<TypeScriptLoader> {
  if (nodeStripsTypes()) return "node";
  tsxRegistration ??= registerTsx();
  return tsxRegistration;
}

function nodeStripsTypes(): boolean {
  const typescript = (process.features as { typescript?: string | false }).typescript;
  return typeof typescript === "string" && typescript !== "";
}

async function registerTsx(): Promise<TypeScriptLoader> {
  try {
    const { register } = (await import("tsx/esm/api")) as { register: () => unknown };
    register();
    return "tsx";
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") return "none";
    throw error;
  }
}

/**
 * Imports a module of the user's (an agent, a tool module) by file path. A
 * TypeScript file loads without a build step where the process can load
 * TypeScript ({@link typeScriptLoader}); where it cannot, this throws a
 * {@link ConfigurationError} `TYPESCRIPT_UNSUPPORTED` that says what to
 * install. `cacheBust` makes Node load a changed file again.
 */
export async function importUserModule(path: string, options: { cacheBust?: string } = {}): Promise<Record<string, unknown>> {
  if (TYPESCRIPT_EXTENSIONS.has(extname(path))) {
    if ((await typeScriptLoader()) === "none") {
      throw new ConfigurationError(
        "TYPESCRIPT_UNSUPPORTED",
        `${path} is TypeScript, and Node ${process.versions.node} cannot load TypeScript by itself. Install tsx (npm install -D tsx), run Node 22.18 or later, or compile the module to JavaScript.`,
      );
    }
    loadTypeScriptAsModules(path);
  }
  const url = pathToFileURL(path).href + (options.cacheBust ? `?${options.cacheBust}` : "");
  return (await import(url)) as Record<string, unknown>;
}

/** The package scopes (folders) whose TypeScript files this process loads as ES modules. */
const moduleScopes = new Set<string>();

/**
 * Makes the TypeScript files of the user's package holding `path` load as ES modules, whatever its package.json says
 * (its scope: the nearest package.json's folder, else the file's own). In
 * a package that is not `"type": "module"` (what `npm init` writes) tsx and Node load a `.ts` file as CommonJS, whose
 * `import "toolsmith"` becomes a `require`: on Node 20 that fails ("Cannot require() ES Module … in a cycle"), and
 * where it works it loads a second copy of toolsmith beside the command's own, whose classes are other classes. A
 * resolve hook marks those files (not `.cts`, nothing under `node_modules`) as modules; the scope's own
 * `"type": "module"` needs none.
 */
function loadTypeScriptAsModules(path: string): void {
  const found = nearestPackage(dirname(path));
  const scope = found?.dir ?? dirname(path);
  if (moduleScopes.has(scope) || found?.manifest.type === "module") return;
  moduleScopes.add(scope);
  register(`data:text/javascript,${encodeURIComponent(MODULE_SCOPE_HOOK)}`, { data: { scope: pathToFileURL(scope).href + "/" } });
}

/** The resolve hook of {@link loadTypeScriptAsModules}, run in Node's loader thread (so it is source text). */
const MODULE_SCOPE_HOOK = `
let scope = "";
export function initialize(data) { scope = data.scope; }
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const { pathname } = new URL(resolved.url);
  if (!resolved.url.startsWith(scope) || !/\\.m?ts$/.test(pathname) || pathname.includes("/node_modules/")) return resolved;
  if (resolved.format === "commonjs-typescript") return { ...resolved, format: "module-typescript" };
  if (resolved.format === undefined || resolved.format === null || resolved.format === "commonjs") return { ...resolved, format: "module" };
  return resolved;
}
`;

import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigurationError } from "../errors/toolsmith-error.js";

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
  if (TYPESCRIPT_EXTENSIONS.has(extname(path)) && (await typeScriptLoader()) === "none") {
    throw new ConfigurationError(
      "TYPESCRIPT_UNSUPPORTED",
      `${path} is TypeScript, and Node ${process.versions.node} cannot load TypeScript by itself. Install tsx (npm install -D tsx), run Node 22.18 or later, or compile the module to JavaScript.`,
    );
  }
  const url = pathToFileURL(path).href + (options.cacheBust ? `?${options.cacheBust}` : "");
  return (await import(url)) as Record<string, unknown>;
}

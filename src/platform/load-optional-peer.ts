import { ConfigurationError, type ToolsmithErrorCode } from "../errors/toolsmith-error.js";

/**
 * Imports a module that needs an optional peer package, turning the peer's
 * absence into an error that says which package to install and for what.
 */
export async function loadOptionalPeer<T>(options: { load: () => Promise<T>; packageName: string; neededFor: string; code?: ToolsmithErrorCode }): Promise<T> {
  try {
    return await options.load();
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    if ((code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && message.includes(`'${options.packageName}`)) {
      throw new ConfigurationError(
        options.code ?? "MISSING_PACKAGE",
        `${options.neededFor} needs the package ${options.packageName}, which is not installed. Install it with: npm install ${options.packageName}`,
        { cause: error },
      );
    }
    throw error;
  }
}

import { ConfigurationError } from "../errors/toolsmith-error.js";

/**
 * Imports an adapter module, turning a missing vendor SDK into an error that
 * says which package to install.
 */
export async function loadAdapter<T>(options: { load: () => Promise<T>; packageName: string; modelName: string }): Promise<T> {
  try {
    return await options.load();
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    if ((code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && message.includes(`'${options.packageName}`)) {
      throw new ConfigurationError(
        "MISSING_MODEL_PACKAGE",
        `Model "${options.modelName}" needs the package ${options.packageName}, which is not installed. Install it with: npm install ${options.packageName}`,
        { cause: error },
      );
    }
    throw error;
  }
}

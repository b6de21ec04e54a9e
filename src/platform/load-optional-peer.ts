import { createRequire } from "node:module";
import { ConfigurationError, type ToolsmithErrorCode } from "../errors/toolsmith-error.js";

/** Which optional peer is wanted, and for what (said in the error when it is missing). */
interface PeerRequest {
  packageName: string;
  neededFor: string;
  code?: ToolsmithErrorCode;
}

/**
 * Imports a module that needs an optional peer package, turning the peer's
 * absence into an error that says which package to install and for what.
 */
export async function loadOptionalPeer<T>(options: PeerRequest & { load: () => Promise<T> }): Promise<T> {
  try {
    return await options.load();
  } catch (error) {
    throw missingPeerError(error, options) ?? error;
  }
}

/**
 * Requires an optional peer package synchronously, for code that runs while an
 * agent is made and cannot wait; a missing package gives the same error as
 * {@link loadOptionalPeer}.
 */
export function requireOptionalPeer<T>(options: PeerRequest): T {
  try {
    return createRequire(import.meta.url)(options.packageName) as T;
  } catch (error) {
    throw missingPeerError(error, options) ?? error;
  }
}

/** The error to throw when `error` says the peer is not installed; undefined for any other failure. */
function missingPeerError(error: unknown, options: PeerRequest): ConfigurationError | undefined {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if ((code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") || !message.includes(`'${options.packageName}`)) return undefined;
  return new ConfigurationError(
    options.code ?? "MISSING_PACKAGE",
    `${options.neededFor} needs the package ${options.packageName}, which is not installed. Install it with: npm install ${options.packageName}`,
    { cause: error },
  );
}

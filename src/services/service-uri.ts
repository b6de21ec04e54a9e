import { redactUriPassword } from "../errors/redact-uri.js";
import { ConfigurationError } from "../errors/toolsmith-error.js";

/** Where the CLI and server keep sessions and memory unless told otherwise. */
export const DEFAULT_DATABASE_PATH = ".toolsmith/toolsmith.db";

/** {@link DEFAULT_DATABASE_PATH} as a service URI. */
export const DEFAULT_DATABASE_URI = `sqlite://${DEFAULT_DATABASE_PATH}`;

/** A service URI split into its scheme and what follows `scheme://`. */
export interface ServiceUri {
  scheme: string;
  /** A path for `sqlite://` and `file://` (`sqlite:///abs/path` gives `/abs/path`); the whole URI for `postgres://` and `s3://`. */
  location: string;
}

/** Splits `uri`, or throws a {@link ConfigurationError} listing the schemes this kind of service accepts, with `example` (default {@link DEFAULT_DATABASE_URI}) as one. */
export function parseServiceUri(uri: string, options: { service: string; schemes: readonly string[]; example?: string }): ServiceUri {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(uri);
  const scheme = match?.[1]!.toLowerCase();
  if (!match || !scheme || !options.schemes.includes(scheme)) {
    throw new ConfigurationError(
      "UNKNOWN_SERVICE_URI",
      `${JSON.stringify(redactUriPassword(uri))} does not name ${/^[aeiou]/i.test(options.service) ? "an" : "a"} ${options.service} service. Use one of: ${options.schemes.map((known) => `${known}://`).join(", ")} (for example ${options.example ?? DEFAULT_DATABASE_URI}).`,
    );
  }
  const location = scheme === "postgres" || scheme === "postgresql" || scheme === "s3" ? uri : match[2]!;
  if (!location && scheme !== "memory") throw new ConfigurationError("UNKNOWN_SERVICE_URI", `${JSON.stringify(redactUriPassword(uri))} names no path. Write it as ${scheme}://<path>.`);
  return { scheme, location };
}

/**
 * Imports a subpath that needs an optional driver package, turning "cannot
 * find package" into a {@link ConfigurationError} that says what to install.
 */
export async function importWithDriver<T>(load: () => Promise<T>, options: { packageName: string; scheme: string }): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if ((code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && String((error as Error).message).includes(`'${options.packageName}'`)) {
      throw new ConfigurationError(
        "DRIVER_MISSING",
        `${options.scheme}:// needs the optional package ${options.packageName}, which is not installed. Run: npm install ${options.packageName}`,
        { cause: error },
      );
    }
    throw error;
  }
}

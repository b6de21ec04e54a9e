/** The PATH a sandboxed command gets: the system's directories only, none of the host user's. */
export const SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** Host variables that always pass into the sandbox when set: they say how to print text, and carry no secrets. */
const ALWAYS_PASSED = ["LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ"] as const;

/** Options of {@link sandboxEnvironment}. */
export interface SandboxEnvironmentOptions {
  /** The host's environment, read for {@link ALWAYS_PASSED} and `allowList`. */
  hostEnv: NodeJS.ProcessEnv;
  /** Names of further host variables to pass through. */
  allowList?: readonly string[];
  /** Values to set, over everything else (an `undefined` value unsets). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The whole environment of a sandboxed command, built from nothing: a fixed
 * `PATH`, `HOME` in the private `/tmp` (so programs that write dotfiles do not
 * litter the workspace), the locale and terminal variables when the host sets
 * them, the host variables the developer allowed by name, and the values the
 * developer set. Anything else of the host's environment (API keys, tokens,
 * `SSH_AUTH_SOCK`) never reaches the command.
 */
export function sandboxEnvironment(options: SandboxEnvironmentOptions): Record<string, string> {
  const env: Record<string, string> = { PATH: SANDBOX_PATH, HOME: "/tmp" };
  for (const name of [...ALWAYS_PASSED, ...(options.allowList ?? [])]) {
    const value = options.hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

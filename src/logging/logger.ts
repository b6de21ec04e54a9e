/**
 * ADK's logger: where toolsmith reports what it cannot put into a run's events, such as a file of the user's
 * message that could not be saved as an artifact, or an error event the session store refused. Set it with
 * {@link setLogger} (or `null` for none) and its level with {@link setLogLevel}, as in ADK. The default writes
 * to standard error, so that standard output stays the program's own (an MCP server over stdio speaks there).
 */

/** Log levels, as ADK numbers them. */
export enum LogLevel {
  DEBUG = 0,
  INFO = 1,
  WARN = 2,
  ERROR = 3,
}

/** ADK's logger contract: one method a level, `log` taking the level, and the least level it writes. */
export interface Logger {
  log(level: LogLevel, ...args: unknown[]): void;
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  setLogLevel(level: LogLevel): void;
}

const LEVEL_NAMES = ["DEBUG", "INFO", "WARN", "ERROR"] as const;

/** The default logger: lines prefixed `[toolsmith WARN]:` on standard error, from `INFO` up unless set otherwise. */
class StandardErrorLogger implements Logger {
  #level = LogLevel.INFO;
  setLogLevel(level: LogLevel): void {
    this.#level = level;
  }
  log(at: LogLevel, ...args: unknown[]): void {
    if (at < this.#level || LEVEL_NAMES[at] === undefined) return;
    console.error(`[toolsmith ${LEVEL_NAMES[at]}]:`, ...args);
  }
  debug(...args: unknown[]): void {
    this.log(LogLevel.DEBUG, ...args);
  }
  info(...args: unknown[]): void {
    this.log(LogLevel.INFO, ...args);
  }
  warn(...args: unknown[]): void {
    this.log(LogLevel.WARN, ...args);
  }
  error(...args: unknown[]): void {
    this.log(LogLevel.ERROR, ...args);
  }
}

/** Writes nothing: the logger after `setLogger(null)`. */
const silent = (): Logger => ({ log() {}, debug() {}, info() {}, warn() {}, error() {}, setLogLevel() {} });

let current: Logger = new StandardErrorLogger();

/** Sets the logger toolsmith writes to, or `null` to write nothing. */
export function setLogger(customLogger: Logger | null): void {
  current = customLogger ?? silent();
}

/** The logger toolsmith writes to now. */
export function getLogger(): Logger {
  return current;
}

/** Goes back to a new default logger (standard error, from `INFO` up). */
export function resetLogger(): void {
  current = new StandardErrorLogger();
}

/** Sets the least level the current logger writes (the default logger's starts at `INFO`), as ADK's does. */
export function setLogLevel(level: LogLevel): void {
  if (LEVEL_NAMES[level] === undefined) throw new RangeError(`Unknown log level ${String(level)}: use LogLevel.DEBUG, INFO, WARN or ERROR.`);
  current.setLogLevel(level);
}

/**
 * ADK's `logger`: writes to whatever logger is set at the time of each call, so it can be imported once and
 * still follow {@link setLogger}.
 */
export const logger: Logger = {
  log: (at, ...args) => current.log(at, ...args),
  debug: (...args) => current.debug(...args),
  info: (...args) => current.info(...args),
  warn: (...args) => current.warn(...args),
  error: (...args) => current.error(...args),
  setLogLevel,
};

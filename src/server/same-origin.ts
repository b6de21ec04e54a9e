import type { Context } from "hono";
import type { ApiEnv } from "./api-env.js";
import { HttpError } from "./http-error.js";

/** Methods a page of another origin may send without asking: they only read. */
const READING_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses (403, `ORIGIN_NOT_ALLOWED`) a request a web page of another origin sent to change something, unless the
 * server allows that origin (`corsOrigins`, `--allow-origin`). CORS keeps such a page from reading the answer, but
 * not from sending a "simple" request (a `POST` of `text/plain`, which needs no preflight): without this check any
 * page the user opens could create a session and run an agent, with its tools, through a server on their machine.
 * Browsers send `Origin` with every request that is not a `GET` or `HEAD`; programs (curl, SDKs, other servers)
 * send none and are not affected. `GET /run_live` is checked by its route: a WebSocket is not bound by CORS at all.
 */
export function refuseOtherOrigins(context: Context<ApiEnv>, allowed: readonly string[]): void {
  if (READING_METHODS.has(context.req.method)) return;
  const origin = foreignOrigin(context, allowed);
  if (origin === undefined) return;
  throw new HttpError(403, "ORIGIN_NOT_ALLOWED", `Requests from pages of ${origin} are refused: this server takes changes only from its own pages. Give the origin with --allow-origin (corsOrigins) to allow it.`);
}

/** The `Origin` of a request a web page of another origin sent, unless the server allows that origin; else nothing. */
export function foreignOrigin(context: Context<ApiEnv>, allowed: readonly string[]): string | undefined {
  const origin = context.req.header("origin");
  return origin === undefined || sameOrAllowedOrigin(origin, requestHost(context), allowed) ? undefined : origin;
}

/** Whether a page of `origin` may call the server: the server's own origin, or one it allows. */
function sameOrAllowedOrigin(origin: string, host: string | undefined, allowed: readonly string[]): boolean {
  if (allowed.includes("*") || allowed.includes(origin)) return true;
  try {
    return host !== undefined && new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false; // "null" (a sandboxed frame, a file) or no origin at all
  }
}

/** The host the client asked for: a proxy's `X-Forwarded-Host`, or `Host`. */
function requestHost(context: Context<ApiEnv>): string | undefined {
  return context.req.header("x-forwarded-host") ?? context.req.header("host");
}

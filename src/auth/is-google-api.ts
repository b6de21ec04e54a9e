/**
 * Whether a URL is one of Google's APIs, as ADK's agent registry asks before it sends Google credentials: the
 * host is `googleapis.com` or ends in `.googleapis.com`. Text that is not an absolute URL is not.
 *
 * @example
 * ```ts
 * import { isGoogleApi } from "toolsmith";
 *
 * isGoogleApi("https://aiplatform.googleapis.com/v1/projects/p"); // true
 * isGoogleApi("https://googleapis.com.example.org/"); // false
 * ```
 */
export function isGoogleApi(url: string): boolean {
  try {
    const { hostname } = new URL(url);
    return hostname === "googleapis.com" || hostname.endsWith(".googleapis.com");
  } catch {
    return false;
  }
}

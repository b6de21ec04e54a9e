import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * A file under `root` for a URL path, or `undefined` when there is none. Paths
 * that would leave `root` find nothing. With `fallback`, an unknown path gets
 * that file instead (single-page apps route in the browser).
 */
export async function staticFile(options: { root: string; path: string; fallback?: string }): Promise<Response | undefined> {
  const decoded = decodedPath(options.path);
  if (decoded === undefined) return undefined;
  const relative = normalize(decoded).replace(/^([/\\])+/, "");
  if (relative.split(sep).includes("..")) return undefined;
  const candidates = [relative === "" || relative === "." ? "index.html" : relative, ...(options.fallback ? [options.fallback] : [])];
  for (const candidate of candidates) {
    const file = join(options.root, candidate);
    if (!file.startsWith(options.root)) continue;
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream";
    return new Response(await readFile(file), { headers: { "content-type": type, "cache-control": "no-cache" } });
  }
  return undefined;
}

/** The URL path decoded, or `undefined` for a malformed escape (`%E0%A4%A`): no file has that name. */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

import { lookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Readable } from "node:stream";
import { ConfigurationError } from "../errors/toolsmith-error.js";
import { refuseUnhonouredOptions } from "../errors/unhonoured-option.js";
import { logger } from "../logging/logger.js";
import { FunctionTool } from "./function-tool.js";
import type { JsonSchema } from "./tool.js";
import { isBlockedAddress, isLocalHostName } from "./network-address.js";
import { trimTrailing } from "../platform/trim-runs.js";

/** Options of {@link loadWebPage} and {@link createLoadWebPageTool}. */
export interface LoadWebPageOptions {
  /** How long the whole fetch may take, body included, in milliseconds (ADK's default, 30,000). */
  timeoutMs?: number;
  /**
   * How many bytes of the page are read, after decompression (default 5,000,000); the text is made from the first
   * `maxBytes` of a longer page. ADK reads every byte a server sends.
   */
  maxBytes?: number;
  /**
   * Host names or IP addresses that may be fetched although they are on this machine or a private network (an
   * intranet wiki, a test server): the model may then read them, so name only what it may see. Compared without
   * case or a final dot. Empty by default, as ADK allows none.
   */
  allowedHosts?: readonly string[];
  /** Stops the fetch (the tool passes its call's signal, so a cancelled run stops it). */
  abortSignal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 5_000_000;
const KNOWN_OPTIONS = ["timeoutMs", "maxBytes", "allowedHosts", "abortSignal"] as const;

/** Resolves a host name to every address it has, as `dns.lookup` with `all` does. */
export type ResolveHost = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const resolveWithSystem: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * ADK's `loadWebPage`: the readable text of the page at `url` (lines of more than three words, scripts, styles and
 * tags left out), or `Failed to fetch url: <url>` when it cannot be had. As ADK's, it fetches only `http:` and
 * `https:`, follows no redirect, takes only a 200 answer, and refuses `localhost` and addresses on this machine or
 * a private network. Unlike ADK's, the addresses checked are the ones connected to: the check runs inside the
 * connection's own name lookup, so a name that resolves to a public address when checked and a private one when
 * connecting (DNS rebinding) cannot reach the private one; and a page is read up to `maxBytes`. Why a fetch failed
 * is logged at `DEBUG` (the model gets ADK's one message).
 */
export function loadWebPage(url: string, options: LoadWebPageOptions = {}): Promise<string> {
  return fetchPageText(url, checkedOptions(options));
}

/**
 * {@link loadWebPage} with the host resolver given: toolsmith's tests answer names with the addresses an attacker
 * would choose. Not part of the public surface.
 */
export async function fetchPageText(url: string, options: LoadWebPageOptions, resolveHost: ResolveHost = resolveWithSystem): Promise<string> {
  const failed = `Failed to fetch url: ${url}`;
  try {
    return htmlToText(await fetchPage(url, options, resolveHost));
  } catch (error) {
    logger.debug(`load_web_page: ${url} was not fetched: ${(error as Error)?.message ?? String(error)}`);
    return failed;
  }
}

/** Why a fetch was refused or failed; only the log sees it. */
class PageFetchError extends Error {}

async function fetchPage(url: string, options: LoadWebPageOptions, resolveHost: ResolveHost): Promise<string> {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new PageFetchError(`the scheme ${parsed.protocol} is not http: or https:`);
  const hostname = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname;
  const allowed = isAllowedHost(hostname, options.allowedHosts ?? []);
  if (!allowed && isLocalHostName(hostname)) throw new PageFetchError(`${hostname} names this machine`);
  // An address in the URL is connected to without a lookup: checked here. A name is checked in the lookup below.
  if (!allowed && isIP(hostname) !== 0 && isBlockedAddress(hostname)) throw new PageFetchError(`${hostname} is on this machine or a private network`);
  const checkedLookup: LookupFunction = (name, lookupOptions, callback) => {
    resolveHost(name).then(
      (records) => {
        const addresses = [...new Map(records.map((record) => [record.address, record])).values()];
        const refused = allowed ? undefined : addresses.find((record) => isBlockedAddress(record.address));
        if (addresses.length === 0) callback(new PageFetchError(`${name} has no address`), "", 0);
        // As ADK: one private address among a name's addresses refuses the name.
        else if (refused) callback(new PageFetchError(`${name} resolves to ${refused.address}, on this machine or a private network`), "", 0);
        else if (lookupOptions.all) (callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(Object.assign(error, { code: (error as NodeJS.ErrnoException).code ?? "ENOTFOUND" }) as NodeJS.ErrnoException, "", 0),
    );
  };
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.abortSignal ? AbortSignal.any([timeout, options.abortSignal]) : timeout;
  const send = parsed.protocol === "https:" ? httpsRequest : httpRequest;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    // No connection pool: every fetch looks its host up (and checks it) again.
    const request = send(parsed, { method: "GET", agent: false, lookup: checkedLookup, signal, headers: { accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8", "accept-encoding": "gzip, deflate, br" } }, resolve);
    request.on("error", reject);
    request.end();
  });
  if (response.statusCode !== 200) {
    // Nothing of the body is read: the connection goes at once (a server may send an error page for ever).
    response.destroy();
    throw new PageFetchError(`the server answered ${response.statusCode}`);
  }
  const body = await readCapped(decoded(response), options.maxBytes ?? DEFAULT_MAX_BYTES, signal);
  return new TextDecoder(charsetOf(response.headers["content-type"])).decode(body);
}

function isAllowedHost(hostname: string, allowedHosts: readonly string[]): boolean {
  const normalise = (host: string) => trimTrailing(host.replace(/^\[|\]$/g, ""), ".").toLowerCase();
  const host = normalise(hostname);
  return allowedHosts.some((allowedHost) => normalise(allowedHost) === host);
}

/** The body as sent, decompressed when the server compressed it. */
function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return response;
  const decompress = encoding === "gzip" || encoding === "x-gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : encoding === "br" ? createBrotliDecompress() : undefined;
  if (!decompress) {
    response.destroy();
    throw new PageFetchError(`the server sent the page in an encoding toolsmith cannot read (${encoding})`);
  }
  response.on("error", (error) => decompress.destroy(error));
  // Stopping the decompressor (at maxBytes, say) must also let the connection go: a server may send for ever.
  decompress.on("close", () => response.destroy());
  return response.pipe(decompress);
}

/** Reads up to `maxBytes` of `stream` (a page, or a compression bomb, can be larger), then lets the rest go. */
async function readCapped(stream: Readable, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = () => stream.destroy(new PageFetchError("the fetch was stopped or took too long"));
  signal.addEventListener("abort", stop, { once: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= maxBytes) {
        logger.debug(`load_web_page: the page is longer than ${maxBytes} bytes; its text is made from the first ${maxBytes}.`);
        stream.destroy();
        break;
      }
    }
  } finally {
    signal.removeEventListener("abort", stop);
  }
  return Buffer.concat(chunks, size);
}

/** The charset a `Content-Type` names, when `TextDecoder` knows it; UTF-8 otherwise (as `fetch`'s `text()` reads every page). */
function charsetOf(contentType: string | undefined): string {
  const label = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  if (!label) return "utf-8";
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return "utf-8";
  }
}

/**
 * ADK's reading of a page: scripts, styles and comments out, every tag a line break, ADK's few entities decoded,
 * and only lines of more than three words kept. The same text ADK's regular expressions make, in time linear in the
 * page: theirs (`/<script[\s\S]*?<\/script>/gi`, `/<[^>]+>/g`) search to the end of the page again from every
 * opening with no close, so a hostile page of `<script` (or of `<`) holds the event loop for a time that grows with
 * the square of its size (ADK: 5 s at 200 KB, so minutes at 2 MB; here, milliseconds).
 */
export function htmlToText(html: string): string {
  const withoutCode = removeBlocks(removeBlocks(removeBlocks(html, /<script/gi, /<\/script>/gi), /<style/gi, /<\/style>/gi), /<!--/g, /-->/g);
  const text = tagsToLineBreaks(withoutCode)
    .replace(/&nbsp;/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.split(/\s+/).filter(Boolean).length > 3)
    .join("\n");
}

/**
 * `text` with every block from an `open` match to the first `close` match after it replaced by a space, as
 * `text.replace(/open[\s\S]*?close/, " ")` replaces them, in one pass: once no `close` follows an opening, none
 * follows any later one either, so the search stops there instead of starting again. Both patterns are global.
 */
function removeBlocks(text: string, open: RegExp, close: RegExp): string {
  let kept = "";
  let from = 0;
  open.lastIndex = 0;
  for (let opening = open.exec(text); opening; opening = open.exec(text)) {
    close.lastIndex = opening.index + opening[0].length;
    const closing = close.exec(text);
    if (!closing) break;
    kept += `${text.slice(from, opening.index)} `;
    from = closing.index + closing[0].length;
    open.lastIndex = from;
  }
  return kept + text.slice(from);
}

/** `text.replace(/<[^>]+>/g, "\n")` in one pass: a `<` with no `>` after it ends the search, as no tag follows it. */
function tagsToLineBreaks(text: string): string {
  let result = "";
  let from = 0;
  for (let start = text.indexOf("<"); start !== -1; start = text.indexOf("<", start)) {
    const end = text.indexOf(">", start + 1);
    if (end === -1) break;
    // "<>" is no tag: [^>]+ needs a character between.
    if (end === start + 1) {
      start += 1;
      continue;
    }
    result += `${text.slice(from, start)}\n`;
    from = end + 1;
    start = from;
  }
  return result + text.slice(from);
}

function checkedOptions(options: LoadWebPageOptions): LoadWebPageOptions {
  refuseUnhonouredOptions("load_web_page", options, KNOWN_OPTIONS);
  const { timeoutMs, maxBytes, allowedHosts } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new ConfigurationError("UNSUPPORTED_OPTION", `load_web_page's timeoutMs must be a positive number of milliseconds; it got ${String(timeoutMs)}.`);
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes > 0)) throw new ConfigurationError("UNSUPPORTED_OPTION", `load_web_page's maxBytes must be a positive whole number; it got ${String(maxBytes)}.`);
  if (allowedHosts !== undefined && !(Array.isArray(allowedHosts) && allowedHosts.every((host) => typeof host === "string" && host.length > 0))) {
    throw new ConfigurationError("UNSUPPORTED_OPTION", "load_web_page's allowedHosts must be a list of host names or IP addresses.");
  }
  return options;
}

/**
 * ADK's `load_web_page` tool with toolsmith's options (see {@link loadWebPage}): `allowedHosts` to let the model
 * read an intranet host, `maxBytes`, `timeoutMs`. The call's abort signal stops the fetch.
 */
export function createLoadWebPageTool(options: Omit<LoadWebPageOptions, "abortSignal"> = {}): FunctionTool<JsonSchema> {
  const checked = checkedOptions(options);
  if ("abortSignal" in options) throw new ConfigurationError("UNSUPPORTED_OPTION", "createLoadWebPageTool takes no abortSignal: each call is stopped by its own run's signal.");
  return new FunctionTool({
    name: "load_web_page",
    description: "Fetches the content at the given URL and returns the readable text extracted from the page.",
    // JSON Schema rather than zod: the root entry must load without zod, an optional peer.
    parameters: { type: "object", properties: { url: { type: "string", description: "The URL to fetch and extract text from." } }, required: ["url"] },
    execute: ({ url }, context) => fetchPageText(String(url), { ...checked, abortSignal: context.abortSignal }),
  });
}

/** ADK's `LOAD_WEB_PAGE`: the `load_web_page` tool with ADK's defaults (no host on a private network allowed). */
export const LOAD_WEB_PAGE = createLoadWebPageTool();

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { constants as zlibConstants, createGzip, gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as adk from "@google/adk";
import { ConfigurationError, createLoadWebPageTool, InMemoryRunner, LlmAgent, LOAD_WEB_PAGE, loadWebPage, type Event } from "../../src/index.js";
import { fetchPageText, htmlToText, type ResolveHost } from "../../src/tools/load-web-page.js";
import { isBlockedAddress } from "../../src/tools/network-address.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";

/**
 * ADK's `load_web_page` in toolsmith, attacked: a page server on this machine counts every connection, and no URL a
 * model can write reaches it unless the host is allowed; the text made of a page is ADK's, compared on random
 * pages; limits on time and size hold against a server that stalls or sends a compression bomb.
 */
type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let server: Server;
let port: number;
let connections = 0;
let requests: IncomingMessage[] = [];
let handler: Handler;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  server.on("connection", (socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  connections = 0;
  requests = [];
  handler = (_request, response) => response.end("<p>one two three four five</p>");
});

const local = (path = "/") => `http://127.0.0.1:${port}${path}`;
const allowLocal = { allowedHosts: ["127.0.0.1"] };
const failed = (url: string) => `Failed to fetch url: ${url}`;

describe("load_web_page: what the model sees", () => {
  it("declares ADK's name, description and parameter", () => {
    const ours = LOAD_WEB_PAGE.declaration();
    const theirs = adk.LOAD_WEB_PAGE._getDeclaration()!;
    expect(ours.name).toBe(theirs.name);
    expect(ours.description).toBe(theirs.description);
    expect((ours.parameters as { properties: { url: { description: string } } }).properties.url.description).toBe("The URL to fetch and extract text from.");
    expect(ours.parameters).toMatchObject({ type: "object", required: ["url"] });
  });

  it("makes the same text of a page as ADK, on 600 random pages, tags and blocks left open among them", async () => {
    // ADK's loadWebPage reads an address in the URL without a lookup and then calls fetch: given the page by a
    // stand-in fetch, it shows the text ADK makes; toolsmith fetches the same page from the server here.
    const word = fc.stringMatching(/^[A-Za-z0-9']{1,7}$/);
    const line = fc.array(word, { minLength: 1, maxLength: 7 }).map((words) => words.join(" "));
    const piece = fc.oneof(
      line,
      line.map((text) => `<p class="x">${text}</p>`),
      line.map((text) => `<script>var a = "${text}";</script>`),
      line.map((text) => `<style>.a { content: "${text}" }</style>`),
      line.map((text) => `<!-- ${text} -->`),
      fc.constantFrom("&amp;", "&lt;b&gt;", "&quot;", "&#39;", "&nbsp;", "&#x27;", "<br>", "\n", "   ", "<div>", "</div>", "&copy;"),
      // Fragments that open and close out of order: where a tag or a block ends is what the scanner must get right.
      fc.constantFrom("<script", "</script>", "<SCRIPT>", "</Script >", "<style", "</STYLE>", "<!--", "-->", "<!-->", "<", ">", "<>", "< >", "<a<b>", "&amp;lt;"),
    );
    const page = fc.array(piece, { maxLength: 25 }).map((pieces) => `<html><body>${pieces.join(" ")}</body></html>`);
    const realFetch = globalThis.fetch;
    let compared = 0;
    try {
      await fc.assert(
        fc.asyncProperty(page, async (html) => {
          vi.stubGlobal("fetch", async () => new Response(html, { status: 200 }));
          const theirs = await adk.loadWebPage("http://93.184.216.34/page");
          vi.stubGlobal("fetch", realFetch);
          handler = (_request, response) => response.end(html);
          const ours = await loadWebPage(local("/page"), allowLocal);
          expect(ours).toBe(theirs);
          expect(htmlToText(html)).toBe(theirs);
          compared++;
        }),
        { numRuns: 600 },
      );
    } finally {
      vi.stubGlobal("fetch", realFetch);
      vi.unstubAllGlobals();
    }
    console.log(`load_web_page text: ${compared} random pages (tags and blocks left open among them), each made into the same text as ADK's`);
  });

  it("reads a hostile page in time linear in its size, where ADK's regular expressions search to the end from every opening", async () => {
    // Openings with no close: ADK's /<script[\s\S]*?<\/script>/gi and /<[^>]+>/g search the rest of the page from
    // each of them, so their time grows with the square of the page. Measured beside toolsmith's on the same pages.
    const realFetch = globalThis.fetch;
    const adkTimes: string[] = [];
    try {
      for (const size of [50_000, 100_000]) {
        const page = "<script ".repeat(size / 8);
        vi.stubGlobal("fetch", async () => new Response(page, { status: 200 }));
        const started = performance.now();
        await adk.loadWebPage("http://93.184.216.34/");
        adkTimes.push(`${size / 1000} KB ${(performance.now() - started).toFixed(0)} ms`);
      }
    } finally {
      vi.stubGlobal("fetch", realFetch);
      vi.unstubAllGlobals();
    }
    const timings: string[] = [];
    for (const [name, unit] of [["<script", "<script "], ["<style", "<style "], ["<!--", "<!-- "], ["<", "< a "]] as const) {
      const page = unit.repeat(Math.ceil(2_000_000 / unit.length));
      const started = performance.now();
      const text = htmlToText(page);
      const took = performance.now() - started;
      timings.push(`${name} ${took.toFixed(0)} ms`);
      expect(typeof text).toBe("string");
      // Linear work takes milliseconds; the quadratic search takes minutes at this size.
      expect(took).toBeLessThan(20_000);
    }
    console.log(`load_web_page, hostile pages of "<script": ADK ${adkTimes.join(", ")} (growing with the square of the size); toolsmith at 2 MB: ${timings.join(", ")}`);
  });

  it("answers the model ADK's failure for a host on this machine, in a run side by side with ADK, and neither connects", async () => {
    const url = local("/secret");
    const run = async (f: typeof adk | typeof import("../../src/index.js"), model: unknown) => {
      const agent = new f.LlmAgent({ name: "reader", model: model as never, tools: [f.LOAD_WEB_PAGE as never] });
      const runner = new f.InMemoryRunner({ agent: agent as never, appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const events: Event[] = [];
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Read it." }] } })) events.push(event as Event);
      return events.flatMap((event) => (event.content?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.response] : [])));
    };
    const script = () => [functionCallsResponse({ name: "load_web_page", args: { url } }), textResponse("I cannot read it.")];
    class Scripted extends adk.BaseLlm {
      readonly steps = script();
      constructor() {
        super({ model: "scripted-load-web-page" });
      }
      async *generateContentAsync() {
        yield this.steps.shift() as never;
      }
      async connect(): Promise<never> {
        throw new Error("not live");
      }
    }
    const theirs = await run(adk, new Scripted());
    const ours = await run(await import("../../src/index.js"), new ScriptedModel(script()));
    expect(ours).toEqual(theirs);
    expect(ours).toEqual([{ result: failed(url) }]);
    expect(connections).toBe(0);
  });
});

describe("load_web_page: hosts on this machine and private networks, as an attacker writes them", () => {
  it("reaches no blocked address however the URL spells it (2,000 URLs), and counts what it refused", async () => {
    const loopbackHosts = [
      "127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0x7f.0.0.1", "0177.0.0.1", "0177.1", "017700000001", "127.255.255.254",
      "0.0.0.0", "0", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:7f00:1]", "[::127.0.0.1]", "[0000::1]", "[::]",
      "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "localhost", "LOCALHOST", "localhost.", "a.localhost", "x.y.LocalHost..",
    ];
    const hostCase = (host: string) => fc.array(fc.boolean(), { minLength: host.length, maxLength: host.length }).map((upper) => [...host].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(""));
    const url = fc.record({
      scheme: fc.constantFrom("http", "https", "HTTP"),
      userinfo: fc.constantFrom("", "user@", "user:pass@", "example.com@", "93.184.216.34@"),
      host: fc.constantFrom(...loopbackHosts).chain(hostCase),
      port: fc.constantFrom(`:${port}`, "", ":80"),
      path: fc.constantFrom("/", "/secret", "/?next=http://example.com", "/%2e%2e/admin", "#frag"),
    }).map(({ scheme, userinfo, host, port: portPart, path }) => `${scheme}://${userinfo}${host}${portPart}${path}`);
    const refused = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(url, async (hostile) => {
        const answer = await loadWebPage(hostile, { timeoutMs: 2_000 });
        expect(answer).toBe(failed(hostile));
        const host = new URL(hostile).hostname;
        refused.set(host, (refused.get(host) ?? 0) + 1);
      }),
      { numRuns: 2_000 },
    );
    expect(connections).toBe(0);
    console.log(`load_web_page hostile URLs: 2,000 refused, 0 connections to the server on 127.0.0.1; ${refused.size} distinct hosts as URL parsing wrote them: ${[...refused.keys()].slice(0, 12).join(", ")}, …`);
  });

  it("refuses a name that resolves to a blocked address, or to one among public ones, without connecting (1,000 names)", async () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const blockedAddress = fc.oneof(
      fc.tuple(octet, octet, octet).map(([b, c, d]) => `127.${b}.${c}.${d}`),
      fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`),
      fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([b, c, d]) => `172.${b}.${c}.${d}`),
      fc.tuple(octet, octet).map(([c, d]) => `192.168.${c}.${d}`),
      fc.tuple(octet, octet).map(([c, d]) => `169.254.${c}.${d}`),
      fc.tuple(fc.integer({ min: 64, max: 127 }), octet, octet).map(([b, c, d]) => `100.${b}.${c}.${d}`),
      fc.constantFrom("::1", "::", "fd12:3456::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "ff02::1", "fec0::1", "64:ff9b::a9fe:a9fe", "2002:a00:1::1"),
    );
    const publicAddress = fc.constantFrom("93.184.216.34", "8.8.8.8", "2606:4700::1111");
    let resolutions = 0;
    await fc.assert(
      // Not "xn--…": a label that is not valid punycode is no host name at all (URL parsing refuses it before any lookup).
      fc.asyncProperty(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}\.(com|example|internal)$/).filter((name) => !name.startsWith("xn--")), fc.array(publicAddress, { maxLength: 2 }), blockedAddress, fc.nat(), async (name, publicOnes, blocked, position) => {
        const addresses: string[] = [...publicOnes];
        addresses.splice(position % (addresses.length + 1), 0, blocked);
        const resolve: ResolveHost = async () => {
          resolutions++;
          return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
        };
        expect(await fetchPageText(`http://${name}:${port}/`, { timeoutMs: 2_000 }, resolve)).toBe(failed(`http://${name}:${port}/`));
      }),
      { numRuns: 1_000 },
    );
    expect(connections).toBe(0);
    expect(resolutions).toBe(1_000);
    console.log(`load_web_page names: 1,000 names resolving to a blocked address (alone or among public ones) refused, 1,000 lookups, 0 connections`);
  });

  it("connects to the address it checked: a name that rebinds after the check never reaches this machine", async () => {
    // ADK looks the name up to check it and fetch looks it up again; a rebinding name answers a public address
    // the first time and 127.0.0.1 after. toolsmith checks inside the connection's own lookup: there is one.
    let lookups = 0;
    const rebinding: ResolveHost = async () => (lookups++ === 0 ? [{ address: "100.63.255.254", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);
    const answer = await fetchPageText(`http://rebind.example:${port}/secret`, { timeoutMs: 300 }, rebinding);
    expect(answer).toBe(failed(`http://rebind.example:${port}/secret`));
    expect(lookups).toBe(1);
    expect(connections).toBe(0);
  });

  it("fetches an allowed host by name, with one lookup, sending the name it was given", async () => {
    let lookups = 0;
    const names: string[] = [];
    const intranet: ResolveHost = async (name) => {
      lookups++;
      names.push(name);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    handler = (_request, response) => response.end("<h1>The wiki page has four words</h1>");
    expect(await fetchPageText(`http://Wiki.Internal.:${port}/page`, { allowedHosts: ["wiki.internal"] }, intranet)).toBe("The wiki page has four words");
    expect(lookups).toBe(1);
    expect(requests[0]!.headers.host).toBe(`wiki.internal.:${port}`);
    // Another name on the same address is still refused.
    expect(await fetchPageText(`http://other.internal:${port}/page`, { allowedHosts: ["wiki.internal"] }, intranet)).toBe(failed(`http://other.internal:${port}/page`));
    expect(names).toEqual(["wiki.internal.", "other.internal"]);
    expect(requests).toHaveLength(1);
  });

  it("judges addresses by their range, IPv6 forms that carry an IPv4 address included", () => {
    const blocked = ["127.0.0.1", "10.1.2.3", "172.31.255.255", "192.168.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fd00::1", "fe80::1%eth0", "::ffff:192.168.1.1", "::ffff:c0a8:101", "::7f00:1", "64:ff9b::a9fe:a9fe", "2002:c0a8:101::1", "not an address", ""];
    const open = ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.63.255.255", "2606:4700::1111", "2001:4860:4860::8888", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"];
    expect(blocked.filter((address) => !isBlockedAddress(address))).toEqual([]);
    expect(open.filter((address) => isBlockedAddress(address))).toEqual([]);
  });
});

describe("load_web_page: servers that answer badly", () => {
  it("takes only a 200 answer and follows no redirect, as ADK", async () => {
    handler = (request, response) => {
      if (request.url === "/moved") response.writeHead(302, { location: local("/target") }).end();
      else if (request.url === "/missing") response.writeHead(404).end("<p>not here at all sorry</p>");
      else response.end("<p>the target page with text</p>");
    };
    expect(await loadWebPage(local("/moved"), allowLocal)).toBe(failed(local("/moved")));
    expect(await loadWebPage(local("/missing"), allowLocal)).toBe(failed(local("/missing")));
    expect(requests.map((request) => request.url)).toEqual(["/moved", "/missing"]);
  });

  it("gives up on a server that never answers once timeoutMs has passed", async () => {
    handler = () => {};
    const started = performance.now();
    expect(await loadWebPage(local("/stall"), { ...allowLocal, timeoutMs: 200 })).toBe(failed(local("/stall")));
    const took = performance.now() - started;
    console.log(`load_web_page: a stalled server given up on after ${took.toFixed(0)} ms (timeoutMs 200)`);
    expect(took).toBeGreaterThanOrEqual(150);
  });

  it("reads at most maxBytes of a compression bomb, and makes text of what it read", async () => {
    const line = "<p>a line of page text</p>\n";
    const bomb = gzipSync(Buffer.from(line.repeat(2_000_000)));
    handler = (_request, response) => response.writeHead(200, { "content-encoding": "gzip", "content-type": "text/html" }).end(bomb);
    const started = performance.now();
    const text = await loadWebPage(local("/bomb"), { ...allowLocal, maxBytes: 1_000_000 });
    const took = performance.now() - started;
    const lines = text.split("\n");
    expect(lines.length).toBe(Math.floor(1_000_000 / line.length));
    expect(lines.every((each) => each === "a line of page text")).toBe(true);
    console.log(`load_web_page: a ${(bomb.length / 1024).toFixed(0)} KB gzip of ${((line.length * 2_000_000) / 1e6).toFixed(0)} MB read to its first 1 MB in ${took.toFixed(0)} ms`);
  });

  it("lets the connection go once maxBytes are read from a server that sends for ever, compressed or not", { timeout: 20_000 }, async () => {
    for (const compressed of [false, true]) {
      let closed!: () => void;
      const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
      handler = (request, response) => {
        response.writeHead(200, compressed ? { "content-encoding": "gzip" } : {});
        const sink = compressed ? createGzip({ flush: zlibConstants.Z_SYNC_FLUSH }) : undefined;
        if (sink) sink.pipe(response);
        const timer = setInterval(() => (sink ?? response).write("<p>more and more words here</p>\n".repeat(200)), 1);
        request.socket.on("close", () => {
          clearInterval(timer);
          closed();
        });
      };
      const text = await loadWebPage(local("/endless"), { ...allowLocal, maxBytes: 200_000, timeoutMs: 120_000 });
      expect(text.split("\n").every((line) => line === "more and more words here")).toBe(true);
      // The test times out here if the connection is kept.
      await connectionClosed;
    }
  });

  it("reads deflate and brotli pages, and refuses an encoding it cannot read", async () => {
    const { deflateSync, brotliCompressSync } = await import("node:zlib");
    const page = Buffer.from("<p>this page was compressed twice over</p>");
    for (const [encoding, body] of [["deflate", deflateSync(page)], ["br", brotliCompressSync(page)]] as const) {
      handler = (_request, response) => response.writeHead(200, { "content-encoding": encoding }).end(body);
      expect(await loadWebPage(local(`/${encoding}`), allowLocal)).toBe("this page was compressed twice over");
    }
    handler = (_request, response) => response.writeHead(200, { "content-encoding": "zstd-someday" }).end("xx");
    expect(await loadWebPage(local("/odd"), allowLocal)).toBe(failed(local("/odd")));
  });

  it("decodes a page in the charset its Content-Type names", async () => {
    handler = (_request, response) => response.writeHead(200, { "content-type": "text/html; charset=ISO-8859-1" }).end(Buffer.from("<p>caf\xe9 cr\xe8me br\xfbl\xe9e for two</p>", "latin1"));
    expect(await loadWebPage(local("/latin"), allowLocal)).toBe("café crème brûlée for two");
    handler = (_request, response) => response.writeHead(200, { "content-type": "text/html; charset=no-such-charset" }).end("<p>plain words in utf eight é</p>");
    expect(await loadWebPage(local("/unknown-charset"), allowLocal)).toBe("plain words in utf eight é");
  });

  it("stops the fetch when the run is cancelled, and the run ends without the page", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    handler = (request) => request.socket.on("close", () => closed());
    const model = new ScriptedModel([functionCallsResponse({ name: "load_web_page", args: { url: local("/slow") } }), textResponse("never")]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "reader", model, tools: [createLoadWebPageTool(allowLocal)] }) });
    const session = await runner.sessionService.createSession({ appName: "InMemoryRunner", userId: "u" });
    const controller = new AbortController();
    const events: Event[] = [];
    const running = (async () => {
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Read." }] }, abortSignal: controller.signal })) events.push(event);
    })();
    while (requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await running;
    await connectionClosed;
    expect(events.map((event) => event.content?.parts?.[0]?.functionCall?.name)).toEqual(["load_web_page"]);
    expect(model.remainingSteps).toBe(1);
  });
});

describe("load_web_page: options", () => {
  it("refuses options it does not have or cannot use, naming them", () => {
    expect(() => createLoadWebPageTool({ timeout: 5 } as never)).toThrow(ConfigurationError);
    expect(() => createLoadWebPageTool({ timeout: 5 } as never)).toThrow('load_web_page has no option "timeout": it takes timeoutMs, maxBytes, allowedHosts, abortSignal.');
    expect(() => createLoadWebPageTool({ timeoutMs: 0 })).toThrow("timeoutMs must be a positive number");
    expect(() => createLoadWebPageTool({ maxBytes: 1.5 })).toThrow("maxBytes must be a positive whole number");
    expect(() => createLoadWebPageTool({ allowedHosts: "127.0.0.1" as never })).toThrow("allowedHosts must be a list");
    expect(() => createLoadWebPageTool({ abortSignal: new AbortController().signal } as never)).toThrow("takes no abortSignal");
    expect(() => loadWebPage(local(), { retries: 3 } as never)).toThrow('no option "retries"');
  });

  it("answers ADK's failure for a URL that is not one, or not http", async () => {
    for (const bad of ["not a url", "file:///etc/passwd", "ftp://example.com/", "javascript:alert(1)", "data:text/html,<p>a b c d e</p>", "http://", ""]) {
      expect(await loadWebPage(bad)).toBe(failed(bad));
    }
  });
});

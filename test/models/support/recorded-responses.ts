import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Model } from "../../../src/index.js";
import { AnthropicModel } from "../../../src/models/anthropic/index.js";
import { GeminiModel } from "../../../src/models/gemini/index.js";
import { OpenAIChatModel, OpenAIResponsesModel } from "../../../src/models/openai/index.js";
import type { RetryOptions } from "../../../src/models/retry-policy.js";
import type { ProviderHandler, ProviderServer } from "./provider-server.js";

/** Where the recorded provider responses live: one folder per provider, one `.http` file per response. */
export const CORPUS_DIR = join(import.meta.dirname, "..", "..", "fixtures", "provider-corpus");

/**
 * One recorded HTTP response: `# ` lines naming where it came from, then the
 * status line, headers, a blank line and the body exactly as sent (SSE
 * framing, CRLF or LF, included).
 */
export interface Recording {
  /** `anthropic/refusal-stream`: folder and file name without `.http`. */
  name: string;
  provider: string;
  source: string[];
  status: number;
  headers: Record<string, string>;
  body: string;
  streamed: boolean;
}

/** Reads one recording; `name` is its path under the corpus folder without `.http`. */
export function readRecording(name: string): Recording {
  const text = readFileSync(join(CORPUS_DIR, `${name}.http`), "utf8");
  const lines = text.split("\n");
  const source: string[] = [];
  let index = 0;
  for (; lines[index]?.startsWith("# "); index++) source.push(lines[index]!.slice(2));
  const statusLine = /^HTTP\/1\.1 (\d{3}) /.exec(lines[index] ?? "");
  if (!statusLine) throw new Error(`${name}: expected an HTTP status line after the comments, found ${JSON.stringify(lines[index])}`);
  const headers: Record<string, string> = {};
  for (index++; lines[index] !== "" && index < lines.length; index++) {
    const colon = lines[index]!.indexOf(":");
    headers[lines[index]!.slice(0, colon).trim().toLowerCase()] = lines[index]!.slice(colon + 1).trim();
  }
  if (source.length === 0) throw new Error(`${name}: a recording must say where it came from in "# source:" lines`);
  const body = lines.slice(index + 1).join("\n");
  return { name, provider: name.split("/")[0]!, source, status: Number(statusLine[1]), headers, body, streamed: (headers["content-type"] ?? "").startsWith("text/event-stream") };
}

/** Every recording in the corpus, by name. */
export function allRecordings(): string[] {
  return (readdirSync(CORPUS_DIR, { recursive: true }) as string[])
    .filter((file) => file.endsWith(".http"))
    .map((file) => relative(".", file).replace(/\\/g, "/").replace(/\.http$/, ""))
    .sort();
}

/**
 * Serves a recording as it was sent: status, headers, and the body. A stream
 * is written one event at a time (split after each blank line, LF or CRLF),
 * with a macrotask between writes so the client receives separate chunks.
 */
export function replay(recording: Recording): ProviderHandler {
  return async (_request, response) => {
    response.writeHead(recording.status, recording.headers);
    if (!recording.streamed) return void response.end(recording.body);
    for (const event of recording.body.split(/(?<=\r?\n\r?\n)/)) {
      response.write(event);
      await new Promise((resolve) => setImmediate(resolve));
    }
    response.end();
  };
}

/**
 * Serves a recording with its body cut at the given byte offsets instead of
 * at event boundaries: cuts may fall inside a line, a JSON string, a CRLF
 * pair or a multi-byte character, as a network may deliver them.
 */
export function replayInPieces(recording: Recording, cuts: number[]): ProviderHandler {
  return async (_request, response) => {
    response.writeHead(recording.status, recording.headers);
    const bytes = Buffer.from(recording.body, "utf8");
    const offsets = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
    let start = 0;
    for (const offset of [...offsets, bytes.length]) {
      if (offset > start) response.write(bytes.subarray(start, offset));
      start = Math.max(start, offset);
      await new Promise((resolve) => setImmediate(resolve));
    }
    response.end();
  };
}

/** The compatible servers in the corpus, each replayed through the Chat Completions adapter. */
const COMPATIBLE_SERVERS = new Set(["deepseek", "mistral", "ollama", "vllm", "llama-cpp", "lm-studio"]);

/** The adapter a corpus folder's recordings are replayed through, and the path its SDK must call. */
export function corpusAdapter(provider: string, server: ProviderServer, retry: RetryOptions): { model: Model; path: (stream: boolean) => string } {
  if (provider === "anthropic") return { model: new AnthropicModel({ model: "claude-sonnet-4-5", apiKey: "test-key", baseURL: server.url, retry }), path: () => "/v1/messages" };
  if (provider === "gemini") {
    return {
      model: new GeminiModel({ model: "gemini-2.5-flash", apiKey: "test-key", baseURL: server.url, retry }),
      path: (stream) => (stream ? "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse" : "/v1beta/models/gemini-2.5-flash:generateContent"),
    };
  }
  if (provider === "openai-responses") return { model: new OpenAIResponsesModel({ model: "gpt-4.1", apiKey: "test-key", baseURL: `${server.url}/v1`, providerName: "OpenAI", retry }), path: () => "/v1/responses" };
  if (provider !== "openai-chat" && !COMPATIBLE_SERVERS.has(provider)) throw new Error(`no adapter for the corpus folder ${provider}`);
  const providerName = provider === "openai-chat" ? "OpenAI" : provider;
  return { model: new OpenAIChatModel({ model: "gpt-4o", apiKey: "test-key", baseURL: `${server.url}/v1`, providerName, retry }), path: () => "/v1/chat/completions" };
}

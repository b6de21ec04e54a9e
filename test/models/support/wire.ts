import type { Model } from "../../../src/index.js";
import type { RetryOptions } from "../../../src/models/retry-policy.js";
import type { ProviderHandler, ProviderServer } from "./provider-server.js";

/** A function call as a provider test scripts it. */
export interface ScriptedCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** The usage every wire reports: 11 tokens in, 7 out. */
export const USAGE = { promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 };

/**
 * One provider's wire format, as the local server speaks it, so the same
 * behaviour tests run against every adapter.
 */
export interface Wire {
  provider: string;
  createModel(server: ProviderServer, retry?: RetryOptions): Model;
  /** The path the SDK must call. */
  path(stream: boolean): string;
  text(text: string): ProviderHandler;
  calls(calls: ScriptedCall[]): ProviderHandler;
  streamText(pieces: string[]): ProviderHandler;
  /** Streams the calls with their arguments split across several chunks where the format allows. */
  streamCalls(calls: ScriptedCall[]): ProviderHandler;
  error(status: number, message: string, headers?: Record<string, string>): ProviderHandler;
  /** Streams a first piece of text and keeps the connection open. */
  hang(firstPiece: string): ProviderHandler;
  /** The function results in a request body, in order. */
  functionResponses(body: any): { id: string | undefined; response: unknown }[];
  toolSchemas(body: any): Record<string, unknown>;
  /** What the provider's documented constraints say about one tool as sent (empty when it complies). */
  toolViolations(tool: any): string[];
  systemText(body: any): string;
  /** The temperature and output-token limit in a request body. */
  generation(body: any): { temperature: unknown; maxTokens: unknown };
  /** Whether the request asked for a stream. */
  streamed(request: { url: string; body: any }): boolean;
}

/** Splits text into `count` roughly equal pieces. */
export function splitText(text: string, count: number): string[] {
  const size = Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the local provider server received. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  url: string;
  headers: IncomingMessage["headers"];
  body: any;
  /** When the request arrived (`performance.now()`), to check waits between retries. */
  receivedAt: number;
  /** Set when the client closed the connection before the response was finished (an abort). */
  closedEarly: Promise<boolean>;
}

/** Answers one request; the server replies 500 "unexpected request" when none is queued. */
export type ProviderHandler = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

/**
 * A local HTTP server on 127.0.0.1 (a free port) that speaks whatever wire
 * format the queued handlers write, and records every request it receives.
 */
export async function startProviderServer() {
  const requests: ReceivedRequest[] = [];
  const handlers: ProviderHandler[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const closedEarly = new Promise<boolean>((resolve) => response.on("close", () => resolve(!response.writableFinished)));
      const request: ReceivedRequest = { receivedAt: performance.now(), method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, body: text ? JSON.parse(text) : undefined, closedEarly };
      requests.push(request);
      const handler = handlers.shift();
      if (!handler) return json(response, 500, { error: { message: `unexpected request ${request.method} ${request.url}` } });
      void Promise.resolve(handler(request, response)).catch((error: unknown) => {
        if (!response.headersSent) json(response, 500, { error: { message: String(error) } });
        else response.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Queues handlers for the next requests, in order. */
    enqueue(...next: ProviderHandler[]) {
      handlers.push(...next);
    },
    /** Handlers queued but never used. */
    get pending() {
      return handlers.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type ProviderServer = Awaited<ReturnType<typeof startProviderServer>>;

/** Writes a JSON response. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** One server-sent event: an optional `event:` name and a `data:` payload (JSON unless a string). */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/** Writes server-sent events one write at a time, then ends the response unless `keepOpen`. */
export async function sse(response: ServerResponse, events: readonly SseEvent[], options: { keepOpen?: boolean } = {}): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  for (const item of events) {
    const data = typeof item.data === "string" ? item.data : JSON.stringify(item.data);
    response.write(`${item.event ? `event: ${item.event}\n` : ""}data: ${data}\n\n`);
    // A macrotask between events, so the client really receives them as separate chunks.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!options.keepOpen) response.end();
}

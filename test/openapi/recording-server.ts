import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the recording server received it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's bytes as received (a multipart upload's files are not UTF-8). */
  raw: Buffer;
}

/**
 * An HTTP server on 127.0.0.1 that records every request and answers with
 * `answer(request)` (default: 200 and the request echoed as JSON).
 */
export async function startRecordingServer(answer?: (request: RecordedRequest) => { status: number; body: unknown; contentType?: string }) {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const recorded = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), raw: Buffer.concat(chunks) };
      requests.push(recorded);
      const reply = answer?.(recorded) ?? { status: 200, body: { received: recorded.url } };
      const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      response.writeHead(reply.status, { "content-type": reply.contentType ?? (typeof reply.body === "string" ? "text/plain" : "application/json") }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

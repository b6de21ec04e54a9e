import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the token endpoint received. */
export interface TokenRequest {
  form: URLSearchParams;
  headers: IncomingMessage["headers"];
}

/** What the token endpoint answers: a status, a body (an object is sent as JSON), and a content type. */
export interface TokenAnswer {
  status?: number;
  body: unknown;
  contentType?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

/**
 * A token endpoint on 127.0.0.1 that records each form it receives and
 * answers with whatever `answer` returns for it; no network beyond loopback.
 */
export class TokenServer {
  readonly requests: TokenRequest[] = [];
  answer: (form: URLSearchParams) => TokenAnswer = () => ({ body: { access_token: "at-1", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-1" } });
  #server: Server | undefined;
  url = "";

  get tokenUrl(): string {
    return `${this.url}/token`;
  }

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        const form = new URLSearchParams(body);
        this.requests.push({ form, headers: request.headers });
        const answer = this.answer(form);
        const send = () => {
          if (response.destroyed) return;
          const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
          response.writeHead(answer.status ?? 200, { "content-type": answer.contentType ?? "application/json" }).end(text);
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server!.close(() => resolve()));
  }

  /** The last form received. */
  last(): URLSearchParams {
    return this.requests.at(-1)!.form;
  }
}

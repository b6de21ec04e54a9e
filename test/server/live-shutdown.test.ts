/**
 * `/run_live` through the command line's server (`toolsmith api-server`): a conversation over the socket, then a
 * SIGTERM that drains the live run like any other and ends it with 1001 and SERVER_SHUTTING_DOWN.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startChildServer } from "../support/child-server.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";

const BIN = join(process.cwd(), "bin/toolsmith.mjs");
const APP = join(process.cwd(), "test/fixtures/live");

describe("toolsmith api-server's /run_live", () => {
  it("runs a live conversation, and on SIGTERM ends it after the grace period with 1001, exiting 0", async () => {
    const server = await startChildServer({
      args: [...SOURCE_NODE_FLAGS, BIN, "api-server", APP, "--port", "0", "--session-service-uri", "memory://", "--artifact-service-uri", "memory://", "--shutdown-grace", "0.2", "--log-level", "info"],
      ready: /API server at http:\/\/127\.0\.0\.1:\d+/,
      timeoutMs: 60_000,
    });
    try {
      const base = /API server at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())![1]!;
      await fetch(`${base}/apps/live/users/u1/sessions/s1`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      const socket = new WebSocket(`${base.replace("http", "ws")}/run_live?app_name=live&user_id=u1&session_id=s1&modalities=TEXT`);
      const frames: any[] = [];
      const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
      const answered = new Promise<void>((resolve) =>
        socket.on("message", (data) => {
          frames.push(JSON.parse(data.toString()));
          if (frames.at(-1).turnComplete) resolve();
        }),
      );
      await new Promise((resolve) => socket.once("open", resolve));
      socket.send(JSON.stringify({ content: { role: "user", parts: [{ text: "Hello" }] } }));
      await answered;
      expect(frames.map((frame) => frame.content?.parts?.[0]?.text ?? "turnComplete")).toEqual(["Hello", "you said: Hello", "turnComplete"]);

      const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
      server.process.kill("SIGTERM");
      const close = await closed;
      expect(close.code).toBe(1001);
      expect(frames.at(-1)).toMatchObject({ code: "SERVER_SHUTTING_DOWN" });
      expect(await exited).toBe(0);
      expect(server.output()).toMatch(/"msg":"runs drained","finished":0,"interrupted":1}/);
    } finally {
      await server.stop();
    }
  }, 90_000);
});

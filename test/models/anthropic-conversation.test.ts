import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getText, InMemoryRunner, LlmAgent } from "../../src/index.js";
import { collect, userMessage } from "../../src/testing/index.js";
import { anthropicWire } from "./support/anthropic-wire.js";
import { startProviderServer, type ProviderServer } from "./support/provider-server.js";

describe("Anthropic conversation shape", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("merges consecutive user turns (after a failed call) so roles alternate, as the Messages API requires", async () => {
    server.enqueue(anthropicWire.error(400, "prompt is too long"), anthropicWire.text("Hello again."));
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "assistant", model: anthropicWire.createModel(server) }), appName: "a" });
    const session = await runner.sessionService.createSession({ appName: "a", userId: "u1" });
    const ask = (text: string) => collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: userMessage(text) }));

    expect((await ask("Hi"))[0]).toMatchObject({ errorCode: "MODEL_BAD_REQUEST" });
    expect(getText((await ask("Hi again"))[0]!.content)).toBe("Hello again.");
    expect(server.requests[1]!.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Hi" }, { type: "text", text: "Hi again" }] },
    ]);
  });
});

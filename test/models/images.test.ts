import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InMemoryRunner, LlmAgent } from "../../src/index.js";
import { collect } from "../../src/testing/index.js";
import { anthropicWire } from "./support/anthropic-wire.js";
import { geminiWire } from "./support/gemini-wire.js";
import { openAIChatWire } from "./support/openai-chat-wire.js";
import { openAIResponsesWire } from "./support/openai-responses-wire.js";
import { startProviderServer, type ProviderServer } from "./support/provider-server.js";

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe.each([
  { wire: geminiWire, image: (body: any) => body.contents[0].parts.find((part: any) => part.inlineData)?.inlineData, expected: { mimeType: "image/png", data: PIXEL } },
  { wire: openAIChatWire, image: (body: any) => body.messages.at(-1).content.find((part: any) => part.type === "image_url"), expected: { type: "image_url", image_url: { url: `data:image/png;base64,${PIXEL}` } } },
  { wire: openAIResponsesWire, image: (body: any) => body.input[0].content.find((part: any) => part.type === "input_image"), expected: { type: "input_image", image_url: `data:image/png;base64,${PIXEL}`, detail: "auto" } },
  { wire: anthropicWire, image: (body: any) => body.messages[0].content.find((block: any) => block.type === "image"), expected: { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL } } },
])("$wire.provider with an image in the user's message", ({ wire, image, expected }) => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await startProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("sends the image and the text in the provider's form", async () => {
    server.enqueue(wire.text("A white pixel."));
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: "describer", model: wire.createModel(server) }), appName: "img" });
    const session = await runner.sessionService.createSession({ appName: "img", userId: "u1" });
    await collect(runner.runAsync({ userId: "u1", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "What is this?" }, { inlineData: { mimeType: "image/png", data: PIXEL } }] } }));

    expect(image(server.requests[0]!.body)).toEqual(expected);
    expect(JSON.stringify(server.requests[0]!.body)).toContain("What is this?");
  });
});

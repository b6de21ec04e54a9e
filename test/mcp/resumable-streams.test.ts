import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { FunctionTool } from "../../src/index.js";
import { closeResponseStream, createMcpServer, InMemoryEventStore, logToClient } from "../../src/mcp/index.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const note = (index: number): JSONRPCMessage => ({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: index } });

describe("InMemoryEventStore", () => {
  it("replays after any stored event exactly the later events of that stream, in order (fuzzed)", async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom("a", "b", "c"), { minLength: 1, maxLength: 60 }), fc.nat(), async (streams, pick) => {
        runs++;
        const store = new InMemoryEventStore();
        const ids: string[] = [];
        for (const [index, stream] of streams.entries()) ids.push(await store.storeEvent(stream, note(index)));
        const from = pick % streams.length;
        const replayed: [string, JSONRPCMessage][] = [];
        const stream = await store.replayEventsAfter(ids[from]!, { send: async (id, message) => void replayed.push([id, message]) });
        expect(stream).toBe(streams[from]);
        const expected = streams.flatMap((candidate, index) => (index > from && candidate === streams[from] ? [[ids[index]!, note(index)] as [string, JSONRPCMessage]] : []));
        expect(replayed).toEqual(expected);
        expect(await store.getStreamIdForEventId(ids[from]!)).toBe(streams[from]);
      }),
      { numRuns: 300 },
    );
    console.log(`InMemoryEventStore replay property: ${runs} random histories checked`);
  });

  it("keeps at most maxEvents and refuses to resume after a forgotten event instead of leaving a silent gap", async () => {
    const store = new InMemoryEventStore({ maxEvents: 3 });
    const first = await store.storeEvent("s", note(0));
    for (let index = 1; index < 5; index++) await store.storeEvent("s", note(index));
    await expect(store.replayEventsAfter(first, { send: async () => undefined })).rejects.toThrow(/is not stored .*Start a new request/);
    await expect(store.replayEventsAfter("hostile\n_id", { send: async () => undefined })).rejects.toThrow(/is not stored/);
  });
});

describe("resumable Streamable HTTP", () => {
  it("a call whose stream the server closes mid-way is resumed by the client with Last-Event-ID, and nothing sent is lost", async () => {
    const slow = new FunctionTool({
      name: "slow",
      description: "Logs, drops its stream, logs again and answers.",
      execute: async (_args, context) => {
        logToClient(context, "info", "before");
        await new Promise((resolve) => setTimeout(resolve, 30));
        closeResponseStream(context);
        logToClient(context, "info", "while disconnected");
        await new Promise((resolve) => setTimeout(resolve, 150));
        return "finished";
      },
    });
    const server = createMcpServer({ tools: [slow], retryIntervalMs: 20 });
    const listener = await server.listen();
    cleanups.push(() => listener.close(), () => server.close());
    const lastEventIds: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      const header = new Headers(init?.headers).get("last-event-id");
      if (header) lastEventIds.push(header);
      return fetch(input, init);
    };
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url), { fetch: fetchSpy }));
    cleanups.push(() => client.close());
    const logs: unknown[] = [];
    const { LoggingMessageNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
    const result = await client.callTool({ name: "slow", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "finished" }]);
    expect(lastEventIds.length).toBeGreaterThanOrEqual(1);
    expect(logs).toEqual(["before", "while disconnected"]);
  });

  it("can be turned off: eventStore false serves without resumption", async () => {
    const server = createMcpServer({ tools: [new FunctionTool({ name: "ping2", description: "Pong.", execute: () => "pong" })], eventStore: false });
    const listener = await server.listen();
    cleanups.push(() => listener.close(), () => server.close());
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    cleanups.push(() => client.close());
    expect((await client.callTool({ name: "ping2", arguments: {} })).content).toEqual([{ type: "text", text: "pong" }]);
  });
});

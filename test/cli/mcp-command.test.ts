import { spawn } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { tempDir } from "../support/temp-dir.js";
import { cli } from "./cli-harness.js";

const repository = process.cwd();
const bin = join(repository, "bin/toolsmith.mjs");
const weatherAgent = join(repository, "examples/weather-sentiment");

describe("toolsmith mcp over stdio", () => {
  it("serves the agent's tools and the agent itself to a client that starts it, with every note on stderr", async () => {
    const cwd = tempDir("toolsmith-mcp-");
    let stderr = "";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...SOURCE_NODE_FLAGS, bin, "mcp", weatherAgent, "--session-service-uri", "memory://"],
      cwd,
      stderr: "pipe",
    });
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "cli-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["analyze_sentiment", "get_weather_report", "weather_sentiment_agent"]);
      expect(tools.find((tool) => tool.name === "get_weather_report")!.inputSchema).toMatchObject({ properties: { city: { type: "string" } }, required: ["city"] });
      const weather = await client.callTool({ name: "get_weather_report", arguments: { city: "Paris" } });
      // A tool without an output schema answers once, as JSON text; the agent (which has one) as structuredContent.
      expect(JSON.parse((weather.content as { text: string }[])[0]!.text)).toEqual({ status: "success", report: "The weather in Paris is sunny with a temperature of 25 degrees Celsius." });
      // The agent as one tool: its own model (the example's rule model) calls its tool and answers.
      const answer = await client.callTool({ name: "weather_sentiment_agent", arguments: { request: "What is the weather in London?" } });
      expect(answer.structuredContent).toEqual({ result: expect.stringContaining("cloudy") });
      // Bad arguments are a result the client's model can read, not a crash.
      const refused = await client.callTool({ name: "get_weather_report", arguments: { town: "Paris" } });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
    // Notes go to stderr: stdout carries the protocol alone, or the client could not have parsed it.
    expect(stderr).toContain("toolsmith MCP server for weather_sentiment_agent on stdio");
  });
});

describe("toolsmith mcp --http", () => {
  it("serves Streamable HTTP on the port given, and stops on SIGINT with exit code 0", async () => {
    const child = spawn(process.execPath, [...SOURCE_NODE_FLAGS, bin, "mcp", weatherAgent, "--http", "--port", "0", "--session-service-uri", "memory://"], {
      cwd: tempDir("toolsmith-mcp-http-"),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    let stderr = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
        if (found) resolve(found[1]!);
      });
      void exited.then((code) => reject(new Error(`toolsmith mcp exited (${code}) before listening: ${stderr}`)));
    });
    const client = new Client({ name: "cli-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("analyze_sentiment");
      const sentiment = await client.callTool({ name: "analyze_sentiment", arguments: { text: "a good day" } });
      expect(JSON.parse((sentiment.content as { text: string }[])[0]!.text)).toEqual({ sentiment: "positive", confidence: 0.8 });
    } finally {
      await client.close();
    }
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });
});

describe("toolsmith mcp on bad input", () => {
  it("refuses a port in use in one line with exit code 3, as web and api-server do", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const { code, stderr } = await cli(["mcp", weatherAgent, "--http", "--port", String(port)], [], { interrupt: AbortSignal.abort() });
      expect({ code, stderr }).toEqual({ code: 3, stderr: `toolsmith: Port ${port} is in use: stop what listens there, or pass --port with another number (--port 0 picks a free one).\n` });
    } finally {
      taken.close();
    }
  });

  it("refuses a bad port with exit code 2 and a missing agent with exit code 3, in one line", async () => {
    const badPort = await cli(["mcp", weatherAgent, "--http", "--port", "eighty"]);
    expect(badPort).toMatchObject({ code: 2, stderr: 'toolsmith: --port must be a number from 0 to 65535, not "eighty".\n' });
    const missing = await cli(["mcp", "no/such/agent.ts"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^toolsmith: "no\/such\/agent.ts" does not exist\. Name a module that exports rootAgent .*\n$/);
  });
});

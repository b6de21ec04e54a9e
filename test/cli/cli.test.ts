import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { cli } from "./cli-harness.js";

const execFileAsync = promisify(execFile);

function tempFile(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "toolsmith-cli-")), name);
  writeFileSync(path, content);
  return path;
}

describe("toolsmith tools", () => {
  it("lists every tool with its schema as the provider receives it, and the lint warnings", async () => {
    const { code, stdout } = await cli(["tools", "examples/shop", "--provider", "openai", "--json"]);
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as { provider: string; tools: { name: string; parameters: Record<string, unknown> }[]; warnings: unknown[] };
    expect(listed.provider).toBe("openai");
    expect(listed.tools.map((tool) => tool.name)).toEqual(["lookup_order", "issue_refund", "ask_manager", "loyalty_points"]);
    // OpenAI strict mode: every field required, the optional one nullable, no other fields.
    expect(listed.tools[1]!.parameters).toMatchObject({
      properties: { reason: { type: ["string", "null"], enum: ["damaged", "late", "other", null] } },
      required: ["orderId", "amount", "reason"],
      additionalProperties: false,
    });
    expect(listed.warnings).toEqual([]);
    const text = await cli(["tools", "examples/weather-sentiment/agent.ts"]);
    expect(text.stdout).toContain("2 tool(s) of weather_sentiment_agent, as gemini receives them");
  });

  it("refuses an unknown provider with exit code 2 and the valid ones", async () => {
    const { code, stderr } = await cli(["tools", "examples/shop", "--provider", "mistral"]);
    expect(code).toBe(2);
    expect(stderr).toBe('toolsmith: --provider must be one of gemini, openai, openai-compatible, anthropic, not "mistral".\n');
  });
});

describe("toolsmith call", () => {
  it("keeps sessions in .toolsmith/toolsmith.db under the working directory by default", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "toolsmith-cli-home-"));
    const agent = join(process.cwd(), "examples/shop");
    const bin = join(process.cwd(), "bin/toolsmith.mjs");
    const first = await execFileAsync(process.execPath, [...SOURCE_NODE_FLAGS, bin, "call", agent, "lookup_order", '{"orderId": "A-17"}', "--json"], { cwd });
    const sessionId = (JSON.parse(first.stdout) as { sessionId: string }).sessionId;
    const second = await execFileAsync(process.execPath, [...SOURCE_NODE_FLAGS, bin, "call", agent, "lookup_order", '{"orderId": "B-2"}', "--session", sessionId, "--json"], { cwd });
    expect(JSON.parse(second.stdout)).toMatchObject({ sessionId, stateDelta: { last_order: "B-2" } });
    expect(existsSync(join(cwd, ".toolsmith/toolsmith.db"))).toBe(true);
    expect(existsSync(join(cwd, ".toolsmith/artifacts"))).toBe(true);
  });

  it("runs one tool on a new session and prints the result, the state delta and the saved artifacts", async () => {
    const { code, stdout } = await cli(["call", "examples/shop", "lookup_order", '{"orderId": "A-17"}', "--json"]);
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as Record<string, any>;
    expect(printed.response).toEqual({ status: "success", orderId: "A-17", item: "teapot", price: 120, shipped: true });
    expect(printed.stateDelta).toEqual({ last_order: "A-17" });
    expect(printed.artifacts).toEqual([
      { filename: "receipt-A-17.txt", version: 0, kind: "text, 42 characters" },
      { filename: "order-photo.png", version: 0, kind: expect.stringMatching(/^image\/png, \d+ bytes$/) },
    ]);
  });

  it("exits with 4 when the tool answers with an error result", async () => {
    const { code, stdout } = await cli(["call", "examples/shop", "issue_refund", '{"orderId": "A", "amount": "lots"}']);
    expect(code).toBe(4);
    expect(stdout).toContain('"status": "error"');
  });

  it("says what is wrong in one line, with exit codes 2 and 3, and a stack only with --verbose", async () => {
    const badJson = await cli(["call", "examples/shop", "lookup_order", "{orderId: A}"]);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr.trim().split("\n")).toHaveLength(1);
    expect(badJson.stderr).toContain("not valid JSON");
    const unknownTool = await cli(["call", "examples/shop", "nope", "{}"]);
    expect(unknownTool).toMatchObject({ code: 3, stderr: 'toolsmith: shop_assistant has no tool "nope". Its tools: lookup_order, issue_refund, ask_manager, loyalty_points.\n' });
    const missingSession = await cli(["call", "examples/shop", "lookup_order", "{}", "--session", "gone"]);
    expect(missingSession.code).toBe(3);
    expect(missingSession.stderr).toContain('Session "gone" was not found');
    const noRootAgent = await cli(["tools", "test/fixtures/agents/broken.ts"]);
    expect(noRootAgent.code).toBe(3);
    expect(noRootAgent.stderr).toContain("exports neither an App nor rootAgent");
    const verbose = await cli(["tools", "test/fixtures/agents/broken.ts", "--verbose"]);
    expect(verbose.stderr).toContain("    at ");
    const badUri = await cli(["call", "examples/shop", "lookup_order", "{}", "--session-service-uri", "redis://x"]);
    expect(badUri.code).toBe(3);
    expect(badUri.stderr).toBe('toolsmith: "redis://x" does not name a session service. Use one of: memory://, sqlite://, postgres://, postgresql:// (for example sqlite://.toolsmith/toolsmith.db).\n');
  });
});

describe("toolsmith run", () => {
  it("chats, streams the answer, shows tool calls and asks for a confirmation at the prompt", async () => {
    const { code, stdout } = await cli(["run", "examples/shop"], ["hello", "refund A-17 120", "y", "/exit"]);
    expect(code).toBe(0);
    expect(stdout).toContain("shop_assistant: Hello! I can look up an order");
    expect(stdout).toContain('  → issue_refund({"orderId":"A-17","amount":120})');
    expect(stdout).toContain('approve issue_refund({"orderId":"A-17","amount":120})? [y/N] y');
    expect(stdout).toContain('  ← issue_refund: {"status":"refunded","orderId":"A-17","amount":120}');
  });

  it("tells the model the user declined when the answer is no, and sends a long-running result typed at the prompt", async () => {
    const { stdout } = await cli(["run", "examples/shop"], ["refund A-17 120", "n", "ask manager about a discount", '{"approved": true}']);
    expect(stdout).toContain("The user declined the call");
    expect(stdout).toContain('shop_assistant: Done: ask_manager answered {"approved":true}.');
  });

  it("asks a workflow node's question at the prompt, and not the tool call that waits on it", async () => {
    const { code, stdout } = await cli(["run", "test/fixtures/agents/refund-approval.ts"], ["refund order 7", "yes", "/exit"]);
    expect(code).toBe(0);
    expect(stdout).toContain("  ? Approve the refund for order 7?\nanswer: yes\n");
    expect(stdout).toContain('  ← refund: {"result":"paid"}');
    expect(stdout).toContain('clerk: Refund: {"result":"paid"}');
    expect(stdout).not.toContain("result for the pending refund call");
  });

  it("shows code the agent runs and its output as steps of the turn", async () => {
    const { code, stdout } = await cli(["run", "test/fixtures/agents/code-runner.ts"], ["sum 1 to 10", "/exit"]);
    expect(code).toBe(0);
    expect(stdout).toContain("analyst: Computing.\n  → code:\n    total = sum(range(1, 11))\n    print(total)\n  ← output:\n    Code execution result:\n    55\nanalyst: The sum is 55.\n");
  });

  it("shows control characters from the agent, its tools and their arguments as symbols, so they cannot rewrite the terminal", async () => {
    const { code, terminal } = await cli(["run", "test/fixtures/agents/hostile-text.ts"], ["deploy", "y", "/exit"]);
    expect(code).toBe(0);
    // No escape, bell or carriage return reached the terminal; the text around them did, each shown as a symbol.
    expect(terminal).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(terminal).toContain('  ← deploy: {"deployed":"staging\\u001b[2K\\rproduction","note":"done\\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\u0007"}');
    expect(terminal).toContain("deployer: Deployed.␛[2K␍All clear <U+202E>evil<U+202C>.");
  });

  it("asks for a credential at the prompt and sends it back", async () => {
    const { code, stdout } = await cli(["run", "examples/shop"], ["points", "secret-key-42"]);
    expect(code).toBe(0);
    expect(stdout).toContain("API key for X-Loyalty-Key: secret-key-42");
    expect(stdout).toContain('  ← loyalty_points: {"status":"success","points":420,"keyEndsWith":"42"}');
  });

  it("replays a JSON list of lines with --replay, and refuses a replay file that is not one", async () => {
    const replay = tempFile("replay.json", JSON.stringify(["weather in Paris", "Sunny weather is good"]));
    const { code, stdout } = await cli(["run", "examples/weather-sentiment", "--replay", replay]);
    expect(code).toBe(0);
    expect(stdout).toContain("you> weather in Paris\n");
    expect(stdout).toContain("weather_sentiment_agent: The weather in Paris is sunny");
    expect(stdout).toContain("(sentiment: positive)");
    const bad = await cli(["run", "examples/shop", "--replay", tempFile("bad.json", '{"a": 1}')]);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining("must hold a JSON list of strings") });
  });

  it("refuses --resume of a session the store does not have", async () => {
    const { code, stderr } = await cli(["run", "examples/shop", "--resume", "nope"]);
    expect(code).toBe(3);
    expect(stderr).toContain('Session "nope" was not found');
  });
});

describe("the toolsmith command", () => {
  it("prints usage for --help, and exit code 2 for an unknown command or option", async () => {
    expect((await cli(["--help"])).stdout).toContain("Exit codes:");
    expect(await cli(["deploy"])).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command "deploy"') });
    expect(await cli(["tools", "--colour"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--colour") });
  });

  it("runs from the bin script, loading TypeScript agents without a build", async () => {
    const { stdout } = await execFileAsync(process.execPath, [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", "call", "examples/shop", "lookup_order", '{"orderId":"Z-9"}', "--session-service-uri", "memory://", "--artifact-service-uri", "memory://"], { timeout: 60_000 });
    expect(stdout).toContain('state delta: {"last_order":"Z-9"}');
    const failure = await execFileAsync(process.execPath, [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", "tools", "examples/missing"], { timeout: 60_000 }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 3, stderr: expect.stringMatching(/^toolsmith: "examples\/missing" does not exist/) });
  });

  it("api-server serves the API on a loopback port until interrupted, and no web UI", async () => {
    const child = spawn(process.execPath, [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", "api-server", "examples", "--port", "0", "--session-service-uri", "memory://", "--artifact-service-uri", "memory://"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
          if (match) resolve(match[1]!);
        });
        child.once("exit", () => reject(new Error(`exited early: ${output}`)));
      });
      expect(await (await fetch(`${url}/list-apps`)).json()).toEqual(["shop", "stats", "weather-sentiment"]);
      expect((await fetch(`${url}/`)).status).toBe(404);
    } finally {
      child.kill("SIGINT");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    expect(child.exitCode).toBe(0);
  });
});

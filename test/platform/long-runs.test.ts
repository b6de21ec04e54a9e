/**
 * Text a model, a web page or a third-party document controls, with one character repeated 100,000 times, read
 * where toolsmith used a regular expression that is tried from every position: `/\.+$/`, `/\n+$/`, `/_+$/`,
 * `\s*```$` and `\{+…\}+` each took time quadratic in such a run (3 to 10 s for 50,000 characters, 4 × that for
 * 100,000), with the event loop blocked. Each path now reads the run once; the figures are printed beside a
 * linear pass over as many characters, and a path that took hundreds of such passes fails.
 */
import { describe, expect, it } from "vitest";
import { InMemoryRunner, LlmAgent } from "../../src/index.js";
import { injectState } from "../../src/agents/inject-state.js";
import { parseValidity } from "../../src/eval/metrics/judge.js";
import { withoutCodeFence } from "../../src/llm-agent/llm-agent-loop.js";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { trimTrailing } from "../../src/platform/trim-runs.js";
import { collect, ScriptedModel, textResponse, userMessage } from "../../src/testing/index.js";
import { isLocalHostName } from "../../src/tools/network-address.js";
import { createReadonlyContext } from "../support/tool-context.js";

const RUN = 100_000;

/**
 * A linear pass over as many characters, measured in the same process, so the bound below moves with the
 * machine: a copy of the text through an array, the median of five.
 */
function linearPassMs(): number {
  const text = "x".repeat(RUN);
  const times = Array.from({ length: 5 }, () => {
    const started = performance.now();
    Array.from(text).join("");
    return performance.now() - started;
  });
  return times.sort((a, b) => a - b)[2]!;
}

/** Times above this many linear passes mean the work grew faster than the run (the quadratic code took thousands). */
const LINEAR_PASSES_ALLOWED = 200;

/**
 * The result of `work`, with how long it took printed under `label` beside a linear pass; fails when it took
 * more than {@link LINEAR_PASSES_ALLOWED} linear passes, which no slow machine explains.
 */
async function timed<T>(label: string, work: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const took = performance.now() - started;
  const pass = linearPassMs();
  console.log(`${label}: ${took.toFixed(1)} ms for a run of ${RUN.toLocaleString("en")} (a linear pass: ${pass.toFixed(1)} ms)`);
  expect(took, `${label} took ${(took / pass).toFixed(0)} linear passes`).toBeLessThan(LINEAR_PASSES_ALLOWED * Math.max(pass, 0.5));
  return result;
}

describe("a long run of one character", () => {
  it("is trimmed from the end in one pass, and only from the end", async () => {
    expect(trimTrailing("a\n\n", "\n")).toBe("a");
    expect(trimTrailing("\n\n", "\n")).toBe("");
    expect(trimTrailing("a\nb", "\n")).toBe("a\nb");
    expect(trimTrailing("", ".")).toBe("");
    expect(await timed("trimTrailing over a run that does not end the text", () => trimTrailing(`a${"\n".repeat(RUN)}b\n`, "\n"))).toBe(`a${"\n".repeat(RUN)}b`);
  });

  it("in a host name the model gave: a final dot still names the same host", async () => {
    expect(isLocalHostName("localhost...")).toBe(true);
    expect(isLocalHostName("Sub.LOCALHOST.")).toBe(true);
    expect(await timed("isLocalHostName", () => isLocalHostName(`a${".".repeat(RUN)}a`))).toBe(false);
  });

  it("in an outputSchema answer: the fence is taken off by position, and the answer is parsed and stored", async () => {
    expect(withoutCodeFence(' ```json\n{"a": 1}\n``` ')).toBe('{"a": 1}');
    expect(withoutCodeFence('```\n{"a": 1}```')).toBe('{"a": 1}');
    expect(withoutCodeFence('{"a": 1}')).toBe('{"a": 1}');
    expect(withoutCodeFence("```")).toBe("");
    const answer = `\`\`\`json\n{"a":${" ".repeat(RUN)}1}\n\`\`\``;
    const agent = new LlmAgent({ name: "structured", model: new ScriptedModel([textResponse(answer)]), outputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] }, outputKey: "result" });
    const runner = new InMemoryRunner({ agent, appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const events = await timed("an outputSchema answer with spaces inside", () => collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") })));
    expect(events.at(-1)!.errorCode).toBeUndefined();
    expect((await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.state).toEqual({ result: { a: 1 } });
  });

  it("of braces in an instruction: placeholders are still found, and a run with no placeholder is left as it is", async () => {
    const context = await createReadonlyContext();
    expect(await injectState("{{{not a name}}} and {{x?}}", context)).toBe("{{{not a name}}} and ");
    const braces = "{".repeat(RUN);
    expect(await timed("injectState", () => injectState(`${braces} hello`, context))).toBe(`${braces} hello`);
  });

  it("of underscores in a third party's operationId: the tool name is made in one pass", async () => {
    const operationId = `get${"_".repeat(RUN)}!users`;
    const document = { openapi: "3.1.0", info: { title: "T", version: "1" }, paths: { "/users": { get: { operationId, responses: { "200": { description: "ok" } } } } } };
    const tools = await timed("an OpenAPI toolset's tool names", () => new OpenAPIToolset({ document, baseUrl: "http://127.0.0.1:9" }).getTools(undefined as never));
    expect(tools.map((tool) => tool.name)).toEqual(["get_users"]);
  });

  it("of spaces in a judge's verdict: the verdict is still read", async () => {
    expect(parseValidity('is_the_agent_response_valid: "invalid"')).toBe(0);
    expect(parseValidity("is_the_agent_response_valid ' valid")).toBe(1);
    expect(await timed("parseValidity", () => parseValidity(`is_the_agent_response_valid${" ".repeat(RUN)}x`))).toBeUndefined();
  });
});

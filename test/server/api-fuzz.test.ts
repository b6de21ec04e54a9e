import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { writeAgentApp } from "../web/agent-app.js";
import { exampleApi } from "./helpers.js";

const agentSource = `import { FunctionTool, LlmAgent } from "toolsmith";
import { FunctionModel, textResponse } from "toolsmith/testing";

const echo = new FunctionTool({ name: "echo", description: "Echoes.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, execute: ({ text }) => ({ text }) });
export const rootAgent = new LlmAgent({ name: "helper", tools: [echo], model: new FunctionModel(() => textResponse("ok")) });
`;

/** Every route of the API with its method, `{…}` standing for a path segment the fuzzer fills. */
const ROUTES: [string, string][] = [
  ["GET", "/list-apps"],
  ["GET", "/apps/{app}/tools"],
  ["GET", "/apps/{app}/requirements"],
  ["GET", "/apps/{app}/users/{user}/sessions"],
  ["POST", "/apps/{app}/users/{user}/sessions"],
  ["POST", "/apps/{app}/users/{user}/sessions/{session}"],
  ["GET", "/apps/{app}/users/{user}/sessions/{session}"],
  ["DELETE", "/apps/{app}/users/{user}/sessions/{session}"],
  ["GET", "/apps/{app}/users/{user}/sessions/{session}/artifacts"],
  ["GET", "/apps/{app}/users/{user}/sessions/{session}/artifacts/{name}"],
  ["GET", "/apps/{app}/users/{user}/sessions/{session}/artifacts/{name}/versions"],
  ["GET", "/apps/{app}/users/{user}/sessions/{session}/artifacts/{name}/versions/{version}"],
  ["DELETE", "/apps/{app}/users/{user}/sessions/{session}/artifacts/{name}"],
  ["POST", "/apps/{app}/users/{user}/sessions/{session}/tools/{tool}/call"],
  ["POST", "/run"],
  ["POST", "/run_sse"],
  ["GET", "/apps/{app}/eval_sets"],
  ["POST", "/apps/{app}/eval_sets/{set}"],
  ["POST", "/apps/{app}/eval_sets/{set}/add_session"],
  ["GET", "/apps/{app}/eval_sets/{set}/evals"],
  ["GET", "/apps/{app}/eval_sets/{set}/evals/{eval}"],
  ["PUT", "/apps/{app}/eval_sets/{set}/evals/{eval}"],
  ["DELETE", "/apps/{app}/eval_sets/{set}/evals/{eval}"],
  ["POST", "/apps/{app}/eval_sets/{set}/run_eval"],
  ["GET", "/apps/{app}/eval_results"],
  ["GET", "/apps/{app}/eval_results/{result}"],
  ["GET", "/debug/trace/{event}"],
  ["GET", "/debug/trace/session/{session}"],
  ["GET", "/dev/apps/{app}/build_graph"],
  ["GET", "/toolsmith/info"],
];

describe("the HTTP API under hostile requests (fast-check)", () => {
  it("never fails with a 5xx and always says what was wrong, whatever the path segments and the body", async () => {
    const { app, call } = await exampleApi({ agentsDir: writeAgentApp("helper", agentSource) });
    const session = (await (await call("/apps/helper/users/u1/sessions", { json: {} })).json()) as { id: string };
    const hostile = fc.oneof(
      fc.constantFrom("..", ".", "%", "%E0%A4%A", "%2e%2e", "%00", "__proto__", "constructor", "a".repeat(3000), "user:x", "0", "-1", "1e9"),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    // Mostly what exists, so that the requests reach past the lookups into the routes' own work.
    const likely = (valid: string) => fc.oneof({ arbitrary: fc.constant(valid), weight: 3 }, { arbitrary: hostile, weight: 1 });
    const segments = fc.record({ app: likely("helper"), user: likely("u1"), session: likely(session.id), tool: likely("echo"), name: hostile, version: hostile, set: hostile, eval: hostile, result: hostile, event: hostile });
    const somePart = fc.oneof(fc.record({ text: fc.string() }), fc.jsonValue(), fc.constant({ functionResponse: { id: "nope", name: "adk_request_confirmation", response: { confirmed: true } } }));
    const runShaped = fc.record(
      { appName: fc.oneof(fc.constant("helper"), fc.jsonValue()), userId: fc.oneof(fc.constant("u1"), fc.jsonValue()), sessionId: fc.oneof(fc.constant(session.id), fc.jsonValue()), newMessage: fc.oneof(fc.record({ role: fc.constant("user"), parts: fc.array(somePart, { maxLength: 3 }) }), fc.jsonValue()), streaming: fc.jsonValue(), state: fc.jsonValue(), stateDelta: fc.jsonValue() },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      runShaped.map((value) => JSON.stringify(value)),
      fc.constantFrom("{", "nul", "[".repeat(5000) + "]".repeat(5000), '{"__proto__": {"polluted": true}}', '{"state": {"__proto__": {"app:admin": true}}}', '{"appName": "helper", "userId": "u1", "sessionId": "x", "stateDelta": {"user:__proto__": {}}}', JSON.stringify({ args: { text: 5 } }), "\u0000"),
    );
    const statuses = new Map<number, number>();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), segments, body, async ([method, template], named, text) => {
        runs++;
        const path = template.replace(/\{(\w+)\}/g, (_placeholder, name: keyof typeof named) => named[name]);
        const sent = method === "GET" ? undefined : text;
        const response = await app.request(`http://127.0.0.1:8000${path}`, { method, headers: sent === undefined ? {} : { "content-type": "application/json" }, body: sent });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const answer = await response.text();
        expect(response.status, `${method} ${path.slice(0, 200)} ${text?.slice(0, 200)} → ${answer.slice(0, 300)}`).toBeLessThan(500);
        if (response.status >= 400) expect(JSON.parse(answer), `${method} ${path}`).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      }),
      { numRuns: Number(process.env.API_FUZZ_RUNS ?? 1_500) },
    );
    console.log(`API fuzz: ${runs} requests over ${ROUTES.length} routes; statuses ${[...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(", ")}`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);
});

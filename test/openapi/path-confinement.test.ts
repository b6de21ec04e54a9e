import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OpenAPIToolset } from "../../src/openapi/index.js";
import { call, runOn, runTurn, text, type Framework } from "../adk-compat/side-by-side.js";
import { createToolContext } from "../support/tool-context.js";
import { OK_RESPONSES, recording, toolsOf } from "./openapi-kit.js";

const BASE_PATH = "/api/v1";
const CREDENTIALS = { key: { apiKey: "secret" } };

/** An API whose one operation is `GET /orgs/{org}/users/{id}/profile`, with both parameters in the given style. */
function usersDocument(style = "simple", explode = false) {
  const parameter = (name: string) => ({ name, in: "path", required: true, style, explode, schema: { type: "string" } });
  return {
    openapi: "3.1.0",
    info: { title: "Users", version: "1" },
    paths: { "/orgs/{org}/users/{id}/profile": { get: { operationId: "profile", parameters: [parameter("org"), parameter("id")], responses: OK_RESPONSES } } },
    components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" } } },
    security: [{ key: [] }],
  };
}

describe("an OpenAPI tool's path parameters cannot move the request to another path", () => {
  it("refuses a value that makes a segment '.' or '..', before any authentication, sending nothing, and tells the model what to give", async () => {
    const server = await recording();
    // No credential is configured: the refusal comes before the call would find that out.
    const tools = await toolsOf(new OpenAPIToolset({ document: usersDocument(), baseUrl: `${server.url}${BASE_PATH}` }));
    const results = [];
    for (const [org, id] of [["acme", ".."], ["..", ".."], ["acme", "."], ["acme", ""]]) {
      results.push(await tools.profile!.run({ org, id }, await createToolContext()));
    }
    expect(server.requests).toEqual([]);
    expect(results[0]).toEqual({
      status: "error",
      error: `Tool "profile": The path parameter "id" made the segment ".." of the path /orgs/{org}/users/{id}/profile, which the URL resolves away, reaching another path. Give the value itself, not a relative path.`,
    });
    expect(results[1]).toMatchObject({ error: expect.stringContaining(`path parameter "org" made the segment ".."`) });
    expect(results[2]).toMatchObject({ error: expect.stringContaining(`path parameter "id" made the segment "."`) });
    expect(results[3]).toEqual({
      status: "error",
      error: `Tool "profile": The path parameter "id" made an empty segment of the path /orgs/{org}/users/{id}/profile, which servers may merge away, reaching another path. Give a value that is not empty.`,
    });
  });

  it("sends values that only look like paths inside their own segment, percent-encoded, to the operation's path", async () => {
    const server = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ document: usersDocument(), baseUrl: `${server.url}${BASE_PATH}`, credentials: CREDENTIALS }));
    for (const [org, id] of [["acme", "../admin"], ["acme", "..."], ["a.b", "%2e%2e"], ["acme", ".hidden"]]) {
      expect(await tools.profile!.run({ org, id }, await createToolContext())).toEqual({ received: expect.any(String) });
    }
    expect(server.requests.map((request) => request.url)).toEqual([
      `${BASE_PATH}/orgs/acme/users/..%2Fadmin/profile`,
      `${BASE_PATH}/orgs/acme/users/.../profile`,
      `${BASE_PATH}/orgs/a.b/users/%252e%252e/profile`,
      `${BASE_PATH}/orgs/acme/users/.hidden/profile`,
    ]);
  });

  it("refuses a label-style value that would be a dot segment: '' is '.' and '.' is '..'", async () => {
    const server = await recording();
    const tools = await toolsOf(new OpenAPIToolset({ document: usersDocument("label"), baseUrl: `${server.url}${BASE_PATH}`, credentials: CREDENTIALS }));
    expect(await tools.profile!.run({ org: "acme", id: "" }, await createToolContext())).toMatchObject({ error: expect.stringContaining(`made the segment "."`) });
    expect(await tools.profile!.run({ org: "acme", id: "." }, await createToolContext())).toMatchObject({ error: expect.stringContaining(`made the segment ".."`) });
    expect(server.requests).toEqual([]);
  });

  it("under fuzzing, every request sent keeps the operation's literal segments where the template has them (fast-check)", async () => {
    // fetch resolves the URL as WHATWG URL does; the recorder reads the path the same way, so what it sees is what a server would.
    const sent: string[] = [];
    const recorder: typeof fetch = async (input) => {
      sent.push(new URL(String(input)).pathname);
      return new Response("{}", { headers: { "content-type": "application/json" } });
    };
    const dotty = fc.stringMatching(/^[.%2eE/]{0,6}$/);
    const value = fc.oneof(dotty, fc.string({ maxLength: 8 }), fc.constantFrom("..", ".", "", "%2e%2e", ".%2E", "%2E."));
    const styles = fc.constantFrom(["simple", false], ["simple", true], ["label", false], ["label", true], ["matrix", false], ["matrix", true]);
    let refused = 0;
    let runs = 0;
    const toolsByStyle = new Map<string, Awaited<ReturnType<typeof toolsOf>>>();
    await fc.assert(
      fc.asyncProperty(styles, value, value, async ([style, explode], org, id) => {
        runs++;
        const key = `${style}/${explode}`;
        if (!toolsByStyle.has(key)) toolsByStyle.set(key, await toolsOf(new OpenAPIToolset({ document: usersDocument(style as string, explode as boolean), baseUrl: `https://api.example.com${BASE_PATH}`, credentials: CREDENTIALS, fetch: recorder })));
        const before = sent.length;
        const result = (await toolsByStyle.get(key)!.profile!.run({ org, id }, await createToolContext())) as Record<string, unknown>;
        if (result.status === "error") {
          refused++;
          expect(sent.length).toBe(before);
          return;
        }
        const segments = sent.at(-1)!.split("/");
        expect(segments).toHaveLength(8);
        expect([segments[0], segments[1], segments[2], segments[3], segments[5], segments[7]]).toEqual(["", "api", "v1", "orgs", "users", "profile"]);
      }),
      { numRuns: 2_000 },
    );
    console.log(`path confinement fuzz: ${runs} calls over 6 styles, ${refused} refused, ${runs - refused} sent, every one to the operation's path`);
    expect(refused).toBeGreaterThan(0);
    expect(runs - refused).toBeGreaterThan(0);
  });

  it("refuses what ADK's toolset refuses ('.' and '..'), and also the empty value ADK sends as '//'", async () => {
    const server = await recording();
    const values = ["..", ".", "", "x"];
    const outcomes = async (f: "adk" | "toolsmith") => {
      const record = await runOn(f, [...values.map((id) => call("profile", { org: "acme", id })), text("Done.")], async (framework: Framework, model: string) => {
        const Toolset = f === "adk" ? (adk.OpenAPIToolset as never as typeof OpenAPIToolset) : OpenAPIToolset;
        return runTurn(framework, new framework.LlmAgent({ name: "profiles", model, tools: [new Toolset({ specDict: { ...usersDocument(), servers: [{ url: `${server.url}${BASE_PATH}` }], security: [] } } as never)] }), "Profiles?");
      });
      const responses = record.events.flatMap((event) => ((event.content as { parts?: Array<{ functionResponse?: { response: Record<string, unknown> } }> })?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.response] : [])));
      return { errors: responses.map((response) => (typeof response.error === "string" ? response.error : undefined)), sent: server.requests.splice(0).map((request) => request.url) };
    };
    const onAdk = await outcomes("adk");
    const onToolsmith = await outcomes("toolsmith");
    expect(onAdk).toEqual({
      errors: [
        "Invalid value for path parameter 'id': relative path segments ('.' and '..') are not allowed.",
        "Invalid value for path parameter 'id': relative path segments ('.' and '..') are not allowed.",
        undefined,
        undefined,
      ],
      sent: [`${BASE_PATH}/orgs/acme/users//profile`, `${BASE_PATH}/orgs/acme/users/x/profile`],
    });
    expect(onToolsmith).toEqual({
      errors: [expect.stringContaining(`made the segment ".."`), expect.stringContaining(`made the segment "."`), expect.stringContaining("made an empty segment"), undefined],
      sent: [`${BASE_PATH}/orgs/acme/users/x/profile`],
    });
  });
});

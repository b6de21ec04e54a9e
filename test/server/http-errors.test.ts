import { describe, expect, it } from "vitest";
import { ClientResponseError, ConfigurationError, SessionNotFoundError, SharedStateConflictError, StaleSessionError, StateValueError, ToolsmithError } from "../../src/index.js";
import { InvalidArtifactNameError } from "../../src/artifacts/artifact-name.js";
import { AppNotFoundError } from "../../src/server/agent-loader.js";
import { HttpError, toHttpError } from "../../src/server/http-error.js";
import { optionalMessage, optionalObject, readJsonObject, requiredString } from "../../src/server/request-body.js";

const post = (body: string) => new Request("http://localhost/x", { method: "POST", body });

describe("toHttpError", () => {
  it.each([
    [new SessionNotFoundError({ appName: "a", userId: "u", sessionId: "s" }), 404, "SESSION_NOT_FOUND"],
    [new AppNotFoundError("ghost", ["a", "b"]), 404, "APP_NOT_FOUND"],
    [new StaleSessionError({ sessionId: "s", readAt: 1, storedAt: 2 }), 409, "STALE_SESSION"],
    [new SharedStateConflictError({ sessionId: "s", keys: ["user:counter"] }), 409, "SHARED_STATE_CONFLICT"],
    [new ConfigurationError("SESSION_EXISTS", "taken"), 409, "SESSION_EXISTS"],
    [new InvalidArtifactNameError("../x", "it climbs"), 400, "INVALID_ARTIFACT_NAME"],
    [new StateValueError("k", "", "is a function"), 400, "STATE_VALUE_NOT_JSON"],
  ])("maps %s to its status and keeps code and message", (error, status, code) => {
    const mapped = toHttpError(error);
    expect(mapped).toBeInstanceOf(HttpError);
    expect({ status: mapped.status, code: mapped.code, message: mapped.message }).toEqual({ status, code, message: error.message });
  });

  it("makes a client's bad answer a 400 by its class, whatever its code", () => {
    // UNKNOWN_AGENT has no status of its own (it is a 500 from the app's setup); from the client it is the client's mistake.
    expect(toHttpError(new ConfigurationError("UNKNOWN_AGENT", "x")).status).toBe(500);
    const error = new ClientResponseError("UNKNOWN_AGENT", "The answer names no agent of this app.");
    expect(toHttpError(error)).toMatchObject({ status: 400, code: "UNKNOWN_AGENT", message: "The answer names no agent of this app." });
  });

  it("keeps the code of a toolsmith error in the app's own setup, as a 500", () => {
    const mapped = toHttpError(new ConfigurationError("NO_ROOT_AGENT", "agent.ts does not export rootAgent."));
    expect(mapped).toMatchObject({ status: 500, code: "NO_ROOT_AGENT", message: "agent.ts does not export rootAgent." });
  });

  it("answers any other error with a 500 INTERNAL that gives its message but not its stack", () => {
    const mapped = toHttpError(new TypeError("x is undefined"));
    expect(mapped).toMatchObject({ status: 500, code: "INTERNAL", message: "The server failed: x is undefined" });
    expect(toHttpError("plain string").message).toBe("The server failed: plain string");
    expect(toHttpError(undefined).message).toBe("The server failed: undefined");
  });

  it("passes an HttpError through as it is", () => {
    const error = new HttpError(413, "BODY_TOO_LARGE", "too big");
    expect(toHttpError(error)).toBe(error);
    expect(error).toBeInstanceOf(ToolsmithError);
  });
});

describe("request bodies", () => {
  it("reads an empty or blank body as {}", async () => {
    expect(await readJsonObject(post(""))).toEqual({});
    expect(await readJsonObject(post("  \n "))).toEqual({});
  });

  it("says where JSON is malformed", async () => {
    const error = await readJsonObject(post('{"a": }')).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, code: "MALFORMED_JSON" });
    expect((error as Error).message).toMatch(/^The request body is not valid JSON \(.+\)\. Send a JSON object\.$/);
  });

  it.each(["[]", "null", "3", '"text"'])("refuses %s, which is JSON but not an object", async (body) => {
    await expect(readJsonObject(post(body))).rejects.toMatchObject({ status: 400, code: "INVALID_BODY", message: "The request body must be a JSON object." });
  });

  it("reads a required string as camelCase or snake_case, preferring camelCase", () => {
    expect(requiredString({ appName: "camel", app_name: "snake" }, "appName")).toBe("camel");
    expect(requiredString({ app_name: "snake" }, "appName")).toBe("snake");
    expect(() => requiredString({ appName: "" }, "appName")).toThrow('"appName" is required and must be a non-empty string.');
    expect(() => requiredString({}, "appName")).toThrow(HttpError);
  });

  it("reads an optional object, taking null for absent", () => {
    expect(optionalObject({ state_delta: { a: 1 } }, "stateDelta")).toEqual({ a: 1 });
    expect(optionalObject({ stateDelta: null }, "stateDelta")).toBeUndefined();
    expect(optionalObject({}, "stateDelta")).toBeUndefined();
    expect(() => optionalObject({ stateDelta: [] }, "stateDelta")).toThrow('"stateDelta" must be a JSON object.');
  });

  it("reads a new message, defaulting its role to user and keeping another role", () => {
    expect(optionalMessage({ newMessage: { parts: [{ text: "hi" }] } })).toEqual({ role: "user", parts: [{ text: "hi" }] });
    expect(optionalMessage({ new_message: { role: "model", parts: [] } })).toEqual({ role: "model", parts: [] });
    expect(optionalMessage({})).toBeUndefined();
    for (const parts of [undefined, "hi", [null], [["text"]]]) {
      expect(() => optionalMessage({ newMessage: { parts } }), JSON.stringify(parts)).toThrow(/"newMessage\.parts" must be a list of parts/);
    }
  });
});

import * as adk from "@google/adk";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as toolsmith from "../../src/index.js";
import { acceptCredential, loadCredential } from "../../src/auth/credential-flow.js";
import { exchangeAuthorizationCode } from "../../src/auth/oauth2.js";
import { call, drain, runOnBoth, text, type Framework } from "./side-by-side.js";
import { createInvocation, createToolContext } from "../support/tool-context.js";

/**
 * ADK's `SessionStateCredentialService` and `CredentialExchangeError`, on `@google/adk` 2.0 and on toolsmith: the
 * same calls made on both, and the same failed OAuth 2 sign-in answered on both.
 */

const apiKeyConfig = { credentialKey: "weather_key", authScheme: { type: "apiKey", in: "header", name: "X-Key" } };
const apiKey = { authType: "apiKey", apiKey: "k-123" };

describe("SessionStateCredentialService, side by side with @google/adk 2.0", () => {
  it("saves an auth config's exchanged credential in the state under its credentialKey, and loads it from there", async () => {
    const calls = async (f: Framework) => {
      const service = new f.SessionStateCredentialService();
      const state = new f.State({}, {});
      const before = await service.loadCredential(apiKeyConfig, { state });
      await service.saveCredential(apiKeyConfig, { state }); // no exchangedAuthCredential: nothing is saved
      const afterNothing = { ...state.delta };
      await service.saveCredential({ ...apiKeyConfig, exchangedAuthCredential: apiKey }, { state });
      return { before, afterNothing, delta: { ...state.delta }, loaded: await service.loadCredential(apiKeyConfig, { state }) };
    };
    const [onAdk, onToolsmith] = [await calls(adk), await calls(toolsmith)];
    expect(onToolsmith).toEqual(onAdk);
    expect(onToolsmith).toEqual({ before: undefined, afterNothing: {}, delta: { weather_key: apiKey }, loaded: apiKey });
  });

  it("kept by a program and called from its tools, keeps what a tool saves in the session, for that session only", async () => {
    const script = [call("sign_in"), text("Signed in."), call("read_key"), text("Read."), call("read_key"), text("Read in a new session.")];
    const { adk: onAdk, toolsmith: onToolsmith } = await runOnBoth(script, async (f, model) => {
      const service = new f.SessionStateCredentialService();
      const reached: boolean[] = [];
      type Ctx = { invocationContext: { credentialService?: unknown } };
      const signIn = new f.FunctionTool({
        name: "sign_in",
        description: "Signs in.",
        parameters: z.object({}),
        execute: async (_args: unknown, context: Ctx) => {
          reached.push(context.invocationContext.credentialService === service);
          await service.saveCredential({ ...apiKeyConfig, exchangedAuthCredential: apiKey }, context);
          return { saved: true };
        },
      });
      const readKey = new f.FunctionTool({
        name: "read_key",
        description: "Reads the key.",
        parameters: z.object({}),
        execute: async (_args: unknown, context: Ctx) => ({ credential: (await service.loadCredential(apiKeyConfig, context)) ?? "none" }),
      });
      const runner = new f.Runner({ appName: "app", agent: new f.LlmAgent({ name: "assistant", model, tools: [signIn, readKey] }), sessionService: new f.InMemorySessionService(), credentialService: service });
      const message = (value: string) => ({ role: "user", parts: [{ text: value }] });
      const first = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const events = [
        ...(await drain(runner.runAsync({ userId: "u", sessionId: first.id, newMessage: message("sign in") }))),
        ...(await drain(runner.runAsync({ userId: "u", sessionId: first.id, newMessage: message("read") }))),
      ];
      const second = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      events.push(...(await drain(runner.runAsync({ userId: "u", sessionId: second.id, newMessage: message("read") }))));
      const stored = await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: first.id });
      return { runner, events, output: { state: { ...stored.state }, reached } };
    });
    const results = (record: typeof onAdk) => record.events.flatMap((event) => (event.content as { parts: Array<{ functionResponse?: { response: unknown } }> } | undefined)?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.response] : []));
    expect(results(onToolsmith)).toEqual(results(onAdk));
    expect(results(onToolsmith)).toEqual([{ saved: true }, { credential: apiKey }, { credential: "none" }]);
    const [adkOutput, ourOutput] = [onAdk.output as { state: unknown; reached: boolean[] }, onToolsmith.output as { state: unknown; reached: boolean[] }];
    expect(ourOutput.state).toEqual(adkOutput.state);
    expect(ourOutput.state).toEqual({ weather_key: apiKey });
    // Differs: ADK 2.0's InvocationContext drops the runner's credentialService (its constructor never keeps it), so a
    // tool cannot reach it there; toolsmith's tools can, and its own credential flow saves through it.
    expect([adkOutput.reached, ourOutput.reached]).toEqual([[false], [true]]);
  });

  it("also serves toolsmith's credential flow, under the same state key, so a credential a run saved is found by ADK's call", async () => {
    const service = new toolsmith.SessionStateCredentialService();
    const state = new toolsmith.State({}, {});
    const scope = { appName: "app", userId: "u", state };
    // The person answered a credential request: the run accepts the key and saves it with the service.
    await acceptCredential({ answer: { ...apiKeyConfig, exchangedAuthCredential: apiKey } as toolsmith.AuthConfig }, { scope, service });
    expect(state.delta).toMatchObject({ weather_key: apiKey });
    expect(await service.loadCredential(apiKeyConfig, scope)).toEqual(apiKey);
    // A later invocation (no temp: key left) loads it through the service.
    const later = { appName: "app", userId: "u", state: new toolsmith.State({ weather_key: apiKey }, {}) };
    expect(await loadCredential(apiKeyConfig as toolsmith.AuthConfig, { scope: later, service })).toEqual(apiKey);
  });
});

describe("CredentialExchangeError, side by side with @google/adk 2.0", () => {
  let tokenEndpoint: Server;
  let tokenUrl = "";
  beforeAll(async () => {
    tokenEndpoint = createServer((_request, response) => {
      response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant" }));
    });
    await new Promise<void>((resolve) => tokenEndpoint.listen(0, "127.0.0.1", resolve));
    tokenUrl = `http://127.0.0.1:${(tokenEndpoint.address() as { port: number }).port}/token`;
  });
  afterAll(() => new Promise<void>((resolve) => tokenEndpoint.close(() => resolve())));

  it("is made as ADK's, new CredentialExchangeError(message), an Error with that message that instanceof recognises", () => {
    const made = (f: Framework) => {
      const error = new f.CredentialExchangeError("Token endpoint not found in auth scheme.", { cause: "why" });
      return { message: error.message, cause: error.cause, isError: error instanceof Error, isItself: error instanceof f.CredentialExchangeError };
    };
    expect(made(toolsmith)).toEqual(made(adk));
    expect(made(toolsmith)).toEqual({ message: "Token endpoint not found in auth scheme.", cause: "why", isError: true, isItself: true });
    // toolsmith's is a toolsmith error too: an OAuth2Error, with a code, named after its class (ADK's name stays "Error").
    const ours = new toolsmith.CredentialExchangeError("failed");
    expect([ours instanceof toolsmith.OAuth2Error, ours.code, ours.name, new adk.CredentialExchangeError("failed").name]).toEqual([true, "CREDENTIAL_EXCHANGE_FAILED", "CredentialExchangeError", "Error"]);
  });

  it("is what a failed exchange of an authorization code throws on both, keeping toolsmith's code", async () => {
    const flow = { authorizationUrl: "https://auth.example/authorize", tokenUrl };
    const wrongState = exchangeAuthorizationCode(flow, { authResponseUri: "http://localhost/cb?code=abc&state=forged", expectedState: "issued" });
    await expect(wrongState).rejects.toBeInstanceOf(toolsmith.CredentialExchangeError);
    await expect(wrongState).rejects.toMatchObject({ code: "OAUTH2_STATE_MISMATCH" });
    const refused = exchangeAuthorizationCode(flow, { authCode: "abc", clientId: "id", clientSecret: "secret" });
    await expect(refused).rejects.toBeInstanceOf(toolsmith.CredentialExchangeError);
    await expect(refused).rejects.toMatchObject({ code: "OAUTH2_TOKEN_REQUEST_FAILED" });
    await expect(refused).rejects.toBeInstanceOf(toolsmith.OAuth2Error);
  });

  it("a sign-in answer that cannot be exchanged: ADK's run throws it; toolsmith's run goes on and tells the model (deliberate difference)", async () => {
    const authConfig = {
      credentialKey: "calendar",
      authScheme: { type: "oauth2", flows: { authorizationCode: { authorizationUrl: "https://auth.example/authorize", tokenUrl, scopes: { read: "Read" } } } },
      rawAuthCredential: { authType: "oauth2", oauth2: { clientId: "id", clientSecret: "secret", redirectUri: "http://localhost/cb" } },
    };
    const { adk: onAdk, toolsmith: onToolsmith } = await runOnBoth([call("calendar"), text("Done.")], async (f, model) => {
      const calendar = new f.FunctionTool({
        name: "calendar",
        description: "Reads the calendar.",
        parameters: z.object({}),
        execute: (_args: unknown, context: { getAuthResponse(config: unknown): unknown; requestCredential(config: unknown): void }) => {
          if (context.getAuthResponse(authConfig)) return { events: [] };
          context.requestCredential(authConfig);
          return { status: "waiting for sign-in" };
        },
      });
      const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "assistant", model, tools: [calendar] }), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const first = (await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "my calendar" }] } }))) as Array<{ content?: { parts: Array<{ functionCall?: { id: string; name: string; args: Record<string, unknown> } }> } }>;
      const request = first.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === "adk_request_credential")!.functionCall!;
      // ADK writes the request's arguments in snake_case, toolsmith in camelCase.
      const asked = (request.args.authConfig ?? request.args.auth_config) as { exchangedAuthCredential: { oauth2: Record<string, unknown> } };
      // The person comes back with a redirect carrying another state than the one issued.
      const answer = { ...asked, exchangedAuthCredential: { authType: "oauth2", oauth2: { ...asked.exchangedAuthCredential.oauth2, authResponseUri: "http://localhost/cb?code=abc&state=forged" } } };
      let thrown: unknown;
      let after: unknown[] = [];
      try {
        after = await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ functionResponse: { id: request.id, name: "adk_request_credential", response: answer } }] } }));
      } catch (error) {
        thrown = error;
      }
      return { runner, events: after, output: { thrown } };
    });
    const thrown = (onAdk.output as { thrown: Error }).thrown;
    expect(thrown).toBeInstanceOf(adk.CredentialExchangeError);
    expect(thrown.message).toMatch(/State mismatch detected/);
    expect((onToolsmith.output as { thrown?: unknown }).thrown).toBeUndefined();
    const toolResult = onToolsmith.events.flatMap((event) => (event.content as { parts: Array<{ functionResponse?: { name: string; response: Record<string, unknown> } }> } | undefined)?.parts ?? []).find((part) => part.functionResponse?.name === "calendar");
    expect(toolResult?.functionResponse?.response).toEqual({ status: "error", error: 'The credential for "calendar" could not be used: The sign-in redirect carries another state than the one issued; it is refused. Ask the user to sign in again.' });
    expect(onToolsmith.events.at(-1)).toMatchObject({ author: "assistant", content: { parts: [{ text: "Done." }] } });
  });
});

describe("InMemoryCredentialService, side by side with @google/adk 2.0", () => {
  it("answers ADK's positional calls as ADK's does: saves the exchanged credential per app and user, and nothing without one", async () => {
    const saved = { authType: "apiKey", apiKey: "k-1" };
    const config = { authScheme: { type: "apiKey", in: "header", name: "x-key" }, credentialKey: "weather_key", exchangedAuthCredential: saved };
    const results: Record<string, unknown> = {};
    for (const [name, service] of [
      ["@google/adk", new adk.InMemoryCredentialService()],
      ["toolsmith", new toolsmith.InMemoryCredentialService()],
    ] as const) {
      const toolContext = await createToolContext();
      const other = new toolsmith.ToolContext({ invocation: await createInvocationFor("another-user"), functionCallId: "call-2" });
      const call = service as unknown as { saveCredential(a: unknown, c: unknown): Promise<void>; loadCredential(a: unknown, c: unknown): Promise<unknown> };
      const before = await call.loadCredential(config, toolContext);
      await call.saveCredential({ ...config, exchangedAuthCredential: undefined, credentialKey: "none" }, toolContext);
      await call.saveCredential(config, toolContext);
      results[name] = {
        before,
        loaded: await call.loadCredential(config, toolContext),
        otherUser: await call.loadCredential(config, other),
        withoutExchange: await call.loadCredential({ ...config, credentialKey: "none" }, toolContext),
        inheritedKey: await call.loadCredential({ ...config, credentialKey: "toString" }, toolContext),
      };
    }
    console.log(JSON.stringify(results));
    expect(results.toolsmith).toEqual(results["@google/adk"]);
    expect(results.toolsmith).toEqual({ before: undefined, loaded: saved, otherUser: undefined, withoutExchange: undefined, inheritedKey: undefined });
  });

  it("finds by ADK's call a credential saved by toolsmith's, and keeps apps and users with slashes in their names apart", async () => {
    const service = new toolsmith.InMemoryCredentialService();
    const credential = { authType: "apiKey" as const, apiKey: "k-2" };
    const toolContext = await createToolContext();
    await service.saveCredential({ context: toolContext, credentialKey: "weather_key", credential });
    expect(await service.loadCredential({ authScheme: { type: "apiKey" }, credentialKey: "weather_key" } as toolsmith.AuthConfig, toolContext)).toEqual(credential);
    const state = new toolsmith.State({}, {});
    await service.saveCredential({ context: { appName: "a/b", userId: "c", state }, credentialKey: "k", credential });
    expect(await service.loadCredential({ context: { appName: "a", userId: "b/c", state }, credentialKey: "k" })).toBeUndefined();
  });
});

/** An invocation for another user of the same app. */
async function createInvocationFor(userId: string) {
  const invocation = await createInvocation();
  const session = await invocation.sessionService.createSession({ appName: "test", userId });
  return new toolsmith.InvocationContext({ ...invocation, session } as never);
}

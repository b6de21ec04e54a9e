/**
 * A function node with `authConfig` (ADK's node option): it asks the client for the credential with an
 * `adk_request_credential` call before it runs, waits, and runs with the credential once the client answered. Side
 * by side with `@google/adk` 2.0, whose gate asks the same question and then never runs the function (the answer
 * becomes the node's output, for the next node; the last node's shows the key in its text); answers refused as the
 * runner refuses a tool's; the
 * credential never in an event; saved for later runs.
 */
import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";
import { FunctionNode, InMemoryRunner, LlmAgent, node, Workflow, type AuthConfig, type Event } from "../../src/index.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { refusal } from "../support/refusal.js";

// Both modules export the names these programs use; each is written once against either.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Framework = any;

const authConfig: AuthConfig = { authScheme: { type: "apiKey", in: "header", name: "X-Api-Key" }, rawAuthCredential: { authType: "apiKey" }, credentialKey: "weather" };
const message = (text: string) => ({ role: "user", parts: [{ text }] });
const credentialAnswer = (id: string, apiKey = "k-SECRET-123") => ({ role: "user", parts: [{ functionResponse: { id, name: "adk_request_credential", response: { ...authConfig, exchangedAuthCredential: { authType: "apiKey", apiKey } } } }] });

/** `START -> fetchWeather (needs the key) -> report`, run message by message on one session; what each run yielded and threw. */
async function weatherWorkflow(f: Framework) {
  const ran: string[] = [];
  const fetchWeather = f.node(
    function fetchWeather(ctx: { state: { get(key: string): unknown } }, input: unknown) {
      const credential = ctx.state.get("temp:weather") as { apiKey?: string } | undefined;
      ran.push(`fetch with ${credential?.apiKey ?? "nothing"}`);
      return { city: "Paris", sky: "clear", askedWith: typeof input };
    },
    { authConfig },
  );
  const report = f.node(function report(_ctx: unknown, weather: { sky?: string }) {
    ran.push("report");
    return `The sky is ${weather?.sky ?? "unknown"}.`;
  });
  const runner = new f.InMemoryRunner({ agent: new f.Workflow({ name: "wf", edges: [["START", fetchWeather, report]] }), appName: "app" });
  const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const send = async (newMessage: unknown) => {
    const events: Event[] = [];
    let threw: { code?: string; message: string } | undefined;
    try {
      for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage })) events.push(event as Event);
    } catch (error) {
      threw = { code: (error as { code?: string }).code, message: (error as Error).message };
    }
    return { events, threw };
  };
  const stored = async () => (await runner.sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id }))!.events as Event[];
  return { ran, send, stored };
}

const requestOf = (events: readonly Event[]) => events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionCall?.name === "adk_request_credential")?.functionCall;

describe("a function node with authConfig, side by side with @google/adk 2.0", () => {
  it("asks for the credential the same way on both, before the function runs", async () => {
    const onAdk = await weatherWorkflow(adk);
    const onToolsmith = await weatherWorkflow(toolsmith);
    const [adkAsked, toolsmithAsked] = [(await onAdk.send(message("weather?"))).events, (await onToolsmith.send(message("weather?"))).events];
    const [adkCall, toolsmithCall] = [requestOf(adkAsked)!, requestOf(toolsmithAsked)!];
    // The same call and arguments; ADK's id is the credential key, toolsmith's a fresh one (each request answered once).
    expect({ ...toolsmithCall, id: "<id>", args: { ...toolsmithCall.args, functionCallId: "<id>" } }).toEqual({ ...adkCall, id: "<id>", args: { ...adkCall.args, functionCallId: "<id>" } });
    expect(toolsmithCall.args).toEqual({ functionCallId: toolsmithCall.id, authConfig, message: "Please provide your API key." });
    expect(adkCall.id).toBe("weather");
    expect(toolsmithAsked.find((event) => requestOf([event]))!.longRunningToolIds).toEqual([toolsmithCall.id]);
    expect(onAdk.ran).toEqual([]);
    expect(onToolsmith.ran).toEqual([]);
  });

  it("runs the function with the credential once answered; ADK 2.0 never runs it and hands the answer on as its output", async () => {
    const onAdk = await weatherWorkflow(adk);
    const adkCall = requestOf((await onAdk.send(message("weather?"))).events)!;
    const adkAnswered = await onAdk.send(credentialAnswer(adkCall.id!));
    // The gated function never ran; the next node got the answer itself as its input.
    expect(onAdk.ran).toEqual(["report"]);
    expect((adkAnswered.events.at(-1) as { output?: unknown }).output).toBe("The sky is unknown.");

    const onToolsmith = await weatherWorkflow(toolsmith);
    const call = requestOf((await onToolsmith.send(message("weather?"))).events)!;
    const answered = await onToolsmith.send(credentialAnswer(call.id!));
    expect(answered.threw).toBeUndefined();
    expect(onToolsmith.ran).toEqual(["fetch with k-SECRET-123", "report"]);
    expect(answered.events.at(-1)!.output).toBe("The sky is clear.");
    // The key is in no event the caller got, nor in any stored one (the client's answer is kept without it).
    expect(JSON.stringify(answered.events)).not.toContain("k-SECRET-123");
    expect(JSON.stringify(await onToolsmith.stored())).not.toContain("k-SECRET-123");
  });
});

describe("a function node with authConfig", () => {
  it("does not ask again in a later run: the answer was saved with the runner's credential service", async () => {
    const { ran, send } = await weatherWorkflow(toolsmith);
    const call = requestOf((await send(message("weather?"))).events)!;
    await send(credentialAnswer(call.id!));
    const later = await send(message("and now?"));
    expect(requestOf(later.events)).toBeUndefined();
    expect(ran).toEqual(["fetch with k-SECRET-123", "report", "fetch with k-SECRET-123", "report"]);
  });

  it("refuses an answer to another id, and a second answer to the same request, storing nothing", async () => {
    const { ran, send, stored } = await weatherWorkflow(toolsmith);
    const call = requestOf((await send(message("weather?"))).events)!;
    const before = (await stored()).length;
    const wrongId = await send(credentialAnswer("adk-not-asked"));
    expect(wrongId.threw).toMatchObject({ code: "UNKNOWN_FUNCTION_CALL" });
    expect((await stored()).length).toBe(before);

    await send(credentialAnswer(call.id!));
    const afterAnswer = (await stored()).length;
    const again = await send(credentialAnswer(call.id!, "k-OTHER"));
    expect(again.threw).toMatchObject({ code: "REQUEST_ALREADY_ANSWERED" });
    expect((await stored()).length).toBe(afterAnswer);
    expect(ran).toEqual(["fetch with k-SECRET-123", "report"]);
  });

  it("takes authConfig on a FunctionNode given to node(), and refuses it where no function runs, or with rerunOnResume: false", async () => {
    const fetch = new FunctionNode("fetch", () => "ok");
    const gated = node(fetch, { authConfig }) as FunctionNode;
    expect(gated).not.toBe(fetch);
    expect(gated.authConfig).toBe(authConfig);
    expect(gated.rerunOnResume).toBe(true);
    expect(fetch.authConfig).toBeUndefined();
    const agent = new LlmAgent({ name: "helper", model: new ScriptedModel([]) });
    expect(refusal(() => node(agent, { authConfig }))).toEqual({ code: "UNSUPPORTED_OPTION", message: expect.stringContaining("node()'s authConfig goes with a function (or a FunctionNode)") });
    expect(refusal(() => new FunctionNode("fetch", () => "ok", { authConfig, rerunOnResume: false }))).toEqual({ code: "UNSUPPORTED_OPTION", message: 'Node "fetch": authConfig cannot go with rerunOnResume: false. A node that asks for a credential runs once the client answered; leave rerunOnResume out.' });
  });

  it("runs at once when the credential service already has the credential", async () => {
    const ran: string[] = [];
    const fetchWeather = node((ctx) => void ran.push(`fetch with ${(ctx.state.get("temp:weather") as { apiKey: string }).apiKey}`), { name: "fetch", authConfig });
    const runner = new InMemoryRunner({ agent: new Workflow({ name: "wf", edges: [["START", fetchWeather]] }), appName: "app" });
    const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await runner.credentialService!.saveCredential({ context: { appName: "app", userId: "u", state: new toolsmith.State() }, credentialKey: "weather", credential: { authType: "apiKey", apiKey: "k-saved" } });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: message("go") })) events.push(event);
    expect(requestOf(events)).toBeUndefined();
    expect(ran).toEqual(["fetch with k-saved"]);
  });
});

/**
 * A run never throws for what happens inside it, fuzzed: a model that yields anything (responses of every shape, and
 * things that are no response), and a tool that returns values JSON cannot hold (cycles, BigInt, symbols, proxies
 * and getters that throw) or throws things that are no Error. Every run completes; each one that fails ends with an
 * error event whose code names the cause, never a TypeError from inside the loop (`RUN_FAILED`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FunctionTool, InMemorySessionService, LlmAgent, Runner, type LlmResponse } from "../../src/index.js";
import { collect, ScriptedModel, userMessage } from "../../src/testing/index.js";

const cyclic = () => { const o: any = { a: 1 }; o.self = o; return o; };
const hostileValues: Array<() => unknown> = [
  () => cyclic(),
  () => 10n,
  () => Symbol("s"),
  () => () => 1,
  () => new Proxy({}, { get() { throw new Error("proxy get"); }, ownKeys() { throw new Error("proxy keys"); } }),
  () => ({ get boom() { throw new Error("getter"); } }),
  () => ({ toJSON() { throw new Error("toJSON"); } }),
  () => new Map([[1, 2]]),
  () => Object.create(null),
  () => undefined,
  () => NaN,
  () => "x".repeat(100_000),
  () => ({ nested: Array.from({ length: 5 }, () => ({ deep: [[[[[{}]]]]] })) }),
];
const thrown: Array<() => unknown> = [() => null, () => undefined, () => "str", () => 5, () => ({ message: 5 }), () => new Error(""), () => cyclic(), () => Symbol("t")];

describe("runs under a hostile model and tool (fast-check)", () => {
  it("complete, and end any failure with an error event naming its cause", async () => {
    // Mostly well-formed, so that runs reach the tool; the rest anything at all.
    const call = fc.record({ functionCall: fc.record({ name: fc.oneof(fc.constantFrom("tool", "tool", "tool", "tool", "tool", "tool", "nope", "", "transfer_to_agent", "adk_request_confirmation"), fc.integer() as any, fc.constant(undefined)), args: fc.oneof({ arbitrary: fc.constantFrom({ mode: 0 }, { mode: 1 }, { mode: "x" }), weight: 6 }, { arbitrary: fc.oneof(fc.jsonValue() as any, fc.constant(undefined)), weight: 1 }), id: fc.oneof(fc.constant(undefined), fc.string(), fc.integer() as any) }, { requiredKeys: ["name"] }) });
    const text = fc.record({ text: fc.oneof(fc.string(), fc.constant(null as any), fc.integer() as any) });
    const part = fc.oneof({ arbitrary: call, weight: 8 }, { arbitrary: text, weight: 3 }, { arbitrary: fc.jsonValue() as any, weight: 1 });
    const wellFormed = fc.record(
      { content: fc.oneof({ arbitrary: fc.record({ role: fc.constant("model"), parts: fc.array(part, { minLength: 1, maxLength: 3 }) }), weight: 12 }, { arbitrary: fc.oneof(fc.constant(null as any), fc.jsonValue() as any), weight: 1 }), partial: fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: fc.boolean(), weight: 1 }), errorCode: fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: fc.oneof(fc.string(), fc.integer() as any), weight: 1 }), turnComplete: fc.oneof(fc.constant(undefined), fc.boolean()) },
      { requiredKeys: ["content"] },
    );
    const response = fc.oneof({ arbitrary: wellFormed, weight: 8 }, { arbitrary: fc.oneof(fc.jsonValue() as any, fc.constant(null as any)), weight: 1 });
    let runs = 0;
    let toolCalls = 0;
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(response, { minLength: 1, maxLength: 4 }), fc.nat(hostileValues.length - 1), fc.nat(thrown.length - 1), async (responses, valueIndex, throwIndex) => {
        runs++;
        const tool = new FunctionTool({ name: "tool", description: "t", parameters: { type: "object", properties: { mode: { type: "number" } } }, execute: ({ mode }) => { toolCalls++; if (mode === 1) throw thrown[throwIndex]!(); return hostileValues[valueIndex]!(); } });
        const sessionService = new InMemorySessionService();
        const model = new ScriptedModel([...(responses as LlmResponse[]), ...Array.from({ length: 30 }, () => ({ content: { role: "model", parts: [{ text: "end" }] } }) as LlmResponse)]);
        const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "a", model, tools: [tool] }), sessionService });
        const session = await sessionService.createSession({ appName: "app", userId: "u" });
        let events;
        try {
          events = await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }));
        } catch (error) {
          throw new Error(`runAsync threw: ${String((error as Error)?.stack ?? error).slice(0, 600)} for ${JSON.stringify(responses).slice(0, 400)} value ${valueIndex} thrown ${throwIndex}`);
        }
        const last = events.at(-1);
        if (last?.errorCode) codes.set(String(last.errorCode), (codes.get(String(last.errorCode)) ?? 0) + 1);
        // An error code a scripted response gave is the model's own, with or without a message; toolsmith's carry one.
        const given = new Set((responses as Array<{ errorCode?: unknown } | null>).map((response) => (typeof response === "object" && response !== null ? response.errorCode : undefined)));
        if (last?.errorCode && !given.has(last.errorCode)) expect(last.errorMessage, String(last.errorCode)).toEqual(expect.any(String));
        expect(last?.errorCode, `${last?.errorCode}: ${last?.errorMessage}`).not.toBe("RUN_FAILED");
        const stored = await sessionService.getSession({ appName: "app", userId: "u", sessionId: session.id });
        expect(stored!.events[0]!.author).toBe("user");
      }),
      { numRuns: Number(process.env.RUN_FUZZ_RUNS ?? 600) },
    );
    const ours = [...codes].filter(([code]) => /^[A-Z]+_[A-Z_]+$/.test(code));
    console.log(`run fuzz: ${runs} runs, the tool called ${toolCalls} times, none threw; ended by toolsmith's error events ${ours.map(([code, count]) => `${code}×${count}`).join(", ")} (and by the errorCode a model gave in ${runs - ours.reduce((sum, [, count]) => sum + count, 0)} others or none)`);
    expect(codes.get("MODEL_INVALID_RESPONSE")).toBeGreaterThan(0);
  }, 120_000);

  it("says what a model yielded that is no LlmResponse, and how to fix it", async () => {
    const ended = async (yielded: unknown) => {
      const runner = new Runner({ appName: "app", agent: new LlmAgent({ name: "a", model: new ScriptedModel([yielded as LlmResponse]) }), sessionService: new InMemorySessionService() });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      const last = (await collect(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: userMessage("go") }))).at(-1)!;
      return [last.errorCode, last.errorMessage];
    };
    const fix = 'A model yields LlmResponse objects, such as { content: { role: "model", parts: [{ text: "Hello" }] } }: fix its generateContent.';
    expect(await ended("hello")).toEqual(["MODEL_INVALID_RESPONSE", `Model "scripted-model" yielded "hello". ${fix}`]);
    expect(await ended({ content: "hello" })).toEqual(["MODEL_INVALID_RESPONSE", `Model "scripted-model" yielded a response whose content is "hello". ${fix}`]);
    expect(await ended({ content: { role: "model", parts: { text: "hi" } } })).toEqual(["MODEL_INVALID_RESPONSE", `Model "scripted-model" yielded a response whose content.parts is an object, not a list. ${fix}`]);
    expect(await ended({ content: { role: "model", parts: [null] } })).toEqual(["MODEL_INVALID_RESPONSE", `Model "scripted-model" yielded a response with the part null, not an object. ${fix}`]);
    expect(await ended({ content: null, errorCode: "RATE", errorMessage: "slow down" })).toEqual(["RATE", "slow down"]);
  });
});

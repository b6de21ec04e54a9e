/**
 * The metrics against values computed by hand from ADK's formulas: tool
 * trajectory (EXACT, IN_ORDER, ANY_ORDER as ADK's TrajectoryEvaluator),
 * ROUGE-1 F-measure (rouge_score's tokenization), and the parsing of judges'
 * answers, however they wrap them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FunctionCall } from "../../src/content/content.js";
import { extractJson, rouge1, scoreInvocations, trajectoryMatches, type ActualInvocation, type Invocation } from "../../src/eval/index.js";
import { parseHallucinationScore, parseRubricVerdicts, parseValidity } from "../../src/eval/metrics/judge.js";
import { rougeTokens } from "../../src/eval/metrics/rouge.js";
import { ScriptedModel, textResponse } from "../../src/testing/index.js";

const a: FunctionCall = { name: "a", args: { x: 1 } };
const b: FunctionCall = { name: "b", args: { y: "two", nested: { k: [1, 2] } } };
const c: FunctionCall = { name: "c", args: {} };

describe("tool trajectory", () => {
  it("EXACT needs the same calls in the same order, nothing extra or missing", () => {
    expect(trajectoryMatches([a, b], [a, b], "EXACT")).toBe(true);
    expect(trajectoryMatches([b, a], [a, b], "EXACT")).toBe(false);
    expect(trajectoryMatches([a, c, b], [a, b], "EXACT")).toBe(false);
    expect(trajectoryMatches([a], [a, b], "EXACT")).toBe(false);
    expect(trajectoryMatches([], [], "EXACT")).toBe(true);
  });

  it("IN_ORDER allows calls between the expected ones, not a change of their order", () => {
    expect(trajectoryMatches([a, c, b], [a, b], "IN_ORDER")).toBe(true);
    expect(trajectoryMatches([b, a], [a, b], "IN_ORDER")).toBe(false);
    expect(trajectoryMatches([a], [a, b], "IN_ORDER")).toBe(false);
    expect(trajectoryMatches([c], [], "IN_ORDER")).toBe(true);
  });

  it("ANY_ORDER needs every expected call once, in any order, extra calls allowed", () => {
    expect(trajectoryMatches([b, c, a], [a, b], "ANY_ORDER")).toBe(true);
    expect(trajectoryMatches([a, b], [a, a], "ANY_ORDER")).toBe(false);
    expect(trajectoryMatches([a, a, b], [a, a], "ANY_ORDER")).toBe(true);
    expect(trajectoryMatches([], [a], "ANY_ORDER")).toBe(false);
  });

  it("compares arguments as Python compares dicts: key order does not count, values do, call ids do not", () => {
    expect(trajectoryMatches([{ id: "adk-1", name: "b", args: { nested: { k: [1, 2] }, y: "two" } }], [b])).toBe(true);
    expect(trajectoryMatches([{ name: "b", args: { y: "two", nested: { k: [2, 1] } } }], [b])).toBe(false);
    expect(trajectoryMatches([{ name: "a", args: { x: "1" } }], [a])).toBe(false);
    expect(trajectoryMatches([{ name: "c" }], [c])).toBe(true);
  });

  it("orders the match types: an EXACT match is an IN_ORDER match, which is an ANY_ORDER match (3,000 generated trajectories)", () => {
    const call = fc.record({ name: fc.constantFrom("a", "b", "c"), args: fc.record({ x: fc.nat(2) }) });
    let exact = 0;
    let inOrder = 0;
    let anyOrder = 0;
    fc.assert(
      fc.property(fc.array(call, { maxLength: 5 }), fc.array(call, { maxLength: 3 }), (actual, expected) => {
        const e = trajectoryMatches(actual, expected, "EXACT");
        const i = trajectoryMatches(actual, expected, "IN_ORDER");
        const y = trajectoryMatches(actual, expected, "ANY_ORDER");
        exact += Number(e);
        inOrder += Number(i);
        anyOrder += Number(y);
        if (e) expect(i).toBe(true);
        if (i) expect(y).toBe(true);
        expect(trajectoryMatches(actual, actual, "EXACT")).toBe(true);
      }),
      { numRuns: 3000 },
    );
    console.log(`trajectory property: of 3000 pairs ${exact} EXACT, ${inOrder} IN_ORDER, ${anyOrder} ANY_ORDER matches`);
  });
});

describe("response match (ROUGE-1)", () => {
  it("tokenizes as rouge_score: lower case, anything but a-z0-9 separates words", () => {
    expect(rougeTokens("I have set the device_2 status to OFF.", { unicode: false })).toEqual(["i", "have", "set", "the", "device", "2", "status", "to", "off"]);
  });

  it("scores the fixture's answers as hand-computed from ADK's formula", () => {
    // Reference 9 words, candidate 6, overlap {the, device, 2, off} = 4: P = 4/6, R = 4/9, F = 2PR/(P+R) = 8/15.
    const first = rouge1("The device 2 is now off", "I have set the device_2 status to off.");
    expect(first.precision).toBeCloseTo(4 / 6, 12);
    expect(first.recall).toBeCloseTo(4 / 9, 12);
    expect(first.fmeasure).toBeCloseTo(8 / 15, 12);
    // Candidate 9 words with "the" twice, reference 7 with it once: overlap 7, P = 7/9, R = 1, F = 14/16.
    expect(rouge1("The device_3 in the Kitchen is currently off.", "device_3 in the Kitchen is off.").fmeasure).toBeCloseTo(0.875, 12);
    // Candidate 6, reference 9, overlap {device, 3, on} = 3: P = 1/2, R = 1/3, F = 0.4.
    expect(rouge1("Done: device_3 is on now.", "I have set the device_3 status to on.").fmeasure).toBeCloseTo(0.4, 12);
  });

  it("gives 1 for equal texts, 0 when nothing overlaps or either text is empty", () => {
    expect(rouge1("Same words here", "same, words: HERE!").fmeasure).toBe(1);
    expect(rouge1("apples", "oranges").fmeasure).toBe(0);
    expect(rouge1("", "something").fmeasure).toBe(0);
    expect(rouge1("", "").fmeasure).toBe(0);
  });

  it("splits non-ASCII words into characters, as ADK's tokenizer for such text does", () => {
    // 你好 and 世界 → 4 characters each side, 2 shared (你, 好) plus "ok": candidate [你, 好, ok], reference [你, 好, 世, 界, ok].
    const score = rouge1("你好 ok", "你好世界 OK!");
    expect(score.precision).toBe(1);
    expect(score.recall).toBeCloseTo(3 / 5, 12);
  });

  it("stems words longer than three letters with Porter's stemmer by default (as ADK's rouge_score does), with NLTK's irregular forms; stem: false or a stemmer of one's own", () => {
    expect(rouge1("turned", "turn").fmeasure).toBe(1);
    expect(rouge1("The lights are turning off", "turned off the light").fmeasure).toBeCloseTo((2 * (4 / 5) * (4 / 4)) / (4 / 5 + 4 / 4));
    expect(rouge1("skies", "sky").fmeasure).toBe(1);
    expect(rouge1("dying", "die").fmeasure).toBe(1);
    expect(rouge1("sun", "suns").fmeasure).toBe(1); // "suns" (four letters) is stemmed to "sun"; "sun" is left as it is
    expect(rouge1("turned", "turn", { stem: false }).fmeasure).toBe(0);
    const stem = (word: string) => word.replace(/(ed|ing|s)$/, "");
    expect(rouge1("turned lights", "turn light", { stem: false }).fmeasure).toBe(0);
    expect(rouge1("turned lights", "turn light", { stem }).fmeasure).toBe(1);
  });

  it("stays within [0, 1] and is symmetric in F-measure (2,000 generated text pairs)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (x, y) => {
        const forward = rouge1(x, y).fmeasure;
        expect(forward).toBeGreaterThanOrEqual(0);
        expect(forward).toBeLessThanOrEqual(1);
        expect(rouge1(y, x).fmeasure).toBeCloseTo(forward, 12);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("judges' answers", () => {
  it("finds the JSON in fences, in prose, after a false start", () => {
    expect(extractJson('Sure!\n```json\n{"verdict": "yes"}\n```')).toEqual({ verdict: "yes" });
    expect(extractJson('I think {not json} but {"a": {"b": "}"}} is it')).toEqual({ a: { b: "}" } });
    expect(extractJson("no json here")).toBeUndefined();
  });

  it("reads a validity verdict from JSON, from a labelled line, or from the last valid/invalid word", () => {
    expect(parseValidity('{"reasoning": "same", "is_the_agent_response_valid": "valid"}')).toBe(1);
    expect(parseValidity('is_the_agent_response_valid: "invalid" — the number differs')).toBe(0);
    expect(parseValidity("It could look valid at first, but it is invalid.")).toBe(0);
    expect(parseValidity("I cannot tell.")).toBeUndefined();
    expect(parseValidity(undefined)).toBeUndefined();
  });

  it("reads rubric verdicts by id from JSON, or from lines when the judge wrote no JSON", () => {
    const rubrics = [{ rubricId: "polite", text: "Polite." }, { rubricId: "short", text: "Short." }];
    expect(parseRubricVerdicts('{"rubrics": [{"rubric_id": "polite", "verdict": "yes"}, {"rubric_id": "short", "verdict": "No"}]}', rubrics)).toEqual(new Map([["polite", true], ["short", false]]));
    expect(parseRubricVerdicts("[polite] yes\n[short]: no", rubrics)).toEqual(new Map([["polite", true], ["short", false]]));
    expect(parseRubricVerdicts('{"rubrics": [{"rubric_id": "invented", "verdict": "yes"}]}', rubrics).size).toBe(0);
  });

  it("scores hallucinations as the share of sentences supported or making no claim", () => {
    expect(parseHallucinationScore('{"sentences": [{"label": "supported"}, {"label": "not applicable"}, {"label": "unsupported"}, {"label": "contradictory"}]}')).toBe(0.5);
    expect(parseHallucinationScore('{"sentences": []}')).toBe(1);
    expect(parseHallucinationScore("Sentence one: supported. Sentence two: unsupported.")).toBe(0.5);
    expect(parseHallucinationScore("no labels")).toBeUndefined();
  });

  it("never throws on any judge answer (3,000 generated answers)", () => {
    const rubrics = [{ rubricId: "r1", text: "x" }];
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((value) => `\`\`\`json\n${JSON.stringify(value)}\n\`\`\``)), (answer) => {
        const validity = parseValidity(answer);
        expect(validity === undefined || validity === 0 || validity === 1).toBe(true);
        const score = parseHallucinationScore(answer);
        expect(score === undefined || (score >= 0 && score <= 1)).toBe(true);
        parseRubricVerdicts(answer, rubrics);
      }),
      { numRuns: 3000 },
    );
  });
});

function turn(answer: string, tools: FunctionCall[] = []): ActualInvocation {
  return { invocationId: "i", userContent: { role: "user", parts: [{ text: "Turn it off." }] }, finalResponse: { role: "model", parts: [{ text: answer }] }, intermediateData: { toolUses: tools, intermediateResponses: [] }, toolResponses: [], creationTimestamp: 0 };
}

describe("judge metrics run by the named model", () => {
  const expected: Invocation[] = [turn("I have switched it off.")];

  it("final_response_match_v2 takes the majority of the samples' readable verdicts", async () => {
    const judge = new ScriptedModel([textResponse('{"is_the_agent_response_valid": "valid"}'), textResponse("gibberish"), textResponse("invalid"), textResponse('```json\n{"is_the_agent_response_valid": "valid"}\n```'), textResponse("valid")]);
    const [score] = await scoreInvocations({ metric: "final_response_match_v2", threshold: 0.5, numSamples: 5 }, [turn("It is off now.")], expected, { judge: async () => judge });
    // Readable: valid, invalid, valid, valid → 3 of 4 say valid.
    expect(score).toEqual({ score: 1 });
    expect(judge.requests[0]!.contents[0]!.parts![0]!.text).toContain("Reference answer:\nI have switched it off.");
    judge.assertComplete();
  });

  it("a rubric metric scores the share of rubrics most samples say yes to", async () => {
    const rubrics = [{ rubricId: "confirms", text: "Confirms the device is off." }, { rubricId: "names_room", text: "Names the room." }];
    const judge = new ScriptedModel([
      textResponse('{"rubrics": [{"rubric_id": "confirms", "verdict": "yes"}, {"rubric_id": "names_room", "verdict": "no"}]}'),
      textResponse('{"rubrics": [{"rubric_id": "confirms", "verdict": "yes"}, {"rubric_id": "names_room", "verdict": "yes"}]}'),
      textResponse('{"rubrics": [{"rubric_id": "confirms", "verdict": "no"}, {"rubric_id": "names_room", "verdict": "no"}]}'),
    ]);
    const [score] = await scoreInvocations({ metric: "rubric_based_final_response_quality_v1", threshold: 0.5, numSamples: 3, rubrics }, [turn("It is off now.")], expected, { judge: async () => judge });
    // confirms: yes, yes, no → yes; names_room: no, yes, no → no. 1 of 2 rubrics.
    expect(score).toEqual({ score: 0.5 });
  });

  it("hallucinations_v1 averages the samples' supported shares, and the tool-use rubric metric is shown the tool calls", async () => {
    const judge = new ScriptedModel([textResponse('{"sentences": [{"label": "supported"}, {"label": "unsupported"}]}'), textResponse('{"sentences": [{"label": "supported"}]}')]);
    const [score] = await scoreInvocations({ metric: "hallucinations_v1", threshold: 0.5, numSamples: 2 }, [turn("It is off. It was on.")], expected, { judge: async () => judge });
    expect(score).toEqual({ score: 0.75 });
    const toolJudge = new ScriptedModel([textResponse("[right_tool] yes")]);
    const [toolScore] = await scoreInvocations({ metric: "rubric_based_tool_use_quality_v1", threshold: 1, numSamples: 1, rubrics: [{ rubricId: "right_tool", text: "Calls set_device_info." }] }, [turn("Off.", [{ name: "set_device_info", args: { status: "OFF" } }])], expected, { judge: async () => toolJudge });
    expect(toolScore).toEqual({ score: 1 });
    expect(toolJudge.requests[0]!.contents[0]!.parts![0]!.text).toContain('- set_device_info({"status":"OFF"})');
  });

  it("leaves an invocation unscored, saying why, when no sample is readable, and refuses a judge metric without a judge", async () => {
    const judge = new ScriptedModel([textResponse("hmm"), new Error("judge down")]);
    const [score] = await scoreInvocations({ metric: "final_response_match_v2", threshold: 0.5, numSamples: 2 }, [turn("x")], expected, { judge: async () => judge });
    expect(score).toEqual({ note: "the judge gave no readable verdict" });
    await expect(scoreInvocations({ metric: "final_response_match_v2", threshold: 0.5 }, [turn("x")], expected)).rejects.toThrow("final_response_match_v2 needs a judge model: name one with --judge-model");
  });
});

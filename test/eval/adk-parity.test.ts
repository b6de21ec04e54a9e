/**
 * Scores against ADK's own expectations. ADK's unit tests of its
 * TrajectoryEvaluator state the score of each dataset of turns (actual and
 * expected tool uses); the same turns, written here as ADK's older .test.json
 * data, score the same through toolsmith's trajectory metric. ADK's older JSON
 * form of a whole set ([{name, data, initial_session}]) reads as ADK converts it.
 */
import { describe, expect, it } from "vitest";
import type { FunctionCall } from "../../src/content/content.js";
import { parseEvalSet, scoreInvocations, type ActualInvocation } from "../../src/eval/index.js";

interface OldToolUse {
  tool_name: string;
  tool_input: Record<string, unknown>;
  mock_tool_output?: unknown;
}

const ROLL_16: OldToolUse = { tool_name: "roll_die", tool_input: { sides: 16 } };
const ROLL_6: OldToolUse = { tool_name: "roll_die", tool_input: { sides: 6 } };
const WEATHER: OldToolUse = { tool_name: "get_weather", tool_input: { location: "Paris" } };
const WEATHER_SF: OldToolUse = { tool_name: "get_weather", tool_input: { location: "SF" } };

/** ADK's named turns: what the agent called and what was expected. */
const TURNS = {
  match: { actual: [ROLL_16], expected: [ROLL_16] },
  mismatchInput: { actual: [ROLL_6], expected: [ROLL_16] },
  mismatchName: { actual: [WEATHER], expected: [ROLL_16] },
  matchMultiple: { actual: [WEATHER, ROLL_6], expected: [WEATHER, ROLL_6] },
  mismatchOrder: { actual: [ROLL_6, WEATHER], expected: [WEATHER, ROLL_6] },
  actualLonger: { actual: [WEATHER, ROLL_6], expected: [WEATHER] },
  expectedLonger: { actual: [WEATHER], expected: [WEATHER, ROLL_6] },
  matchWithMockOutput: { actual: [WEATHER_SF], expected: [{ ...WEATHER_SF, mock_tool_output: "Sunny" }] },
  emptyTools: { actual: [], expected: [] },
  emptyVsNonEmpty: { actual: [], expected: [WEATHER] },
} satisfies Record<string, { actual: OldToolUse[]; expected: OldToolUse[] }>;
type TurnName = keyof typeof TURNS;

const call = (use: OldToolUse): FunctionCall => ({ name: use.tool_name, args: use.tool_input });

/** ADK's score of a dataset: every turn of every conversation, read from .test.json data, averaged. */
async function trajectoryScore(conversations: TurnName[][]): Promise<number> {
  const scores: number[] = [];
  for (const [index, conversation] of conversations.entries()) {
    const data = conversation.map((name, turn) => ({ query: `Q${turn}`, expected_tool_use: TURNS[name].expected, reference: "" }));
    const set = await parseEvalSet(data, `conversation_${index}.test.json`);
    const expected = set.evalCases[0]!.conversation;
    const actual: ActualInvocation[] = conversation.map((name, turn) => ({ ...expected[turn]!, intermediateData: { toolUses: TURNS[name].actual.map(call), intermediateResponses: [] }, toolResponses: [] }));
    for (const entry of await scoreInvocations({ metric: "tool_trajectory_avg_score", threshold: 1 }, actual, expected)) scores.push(entry.score!);
  }
  return scores.reduce((sum, score) => sum + score, 0) / scores.length;
}

describe("tool trajectory scores as ADK's TrajectoryEvaluator tests state them", () => {
  it.each<[string, TurnName[][], number]>([
    ["a single matching turn", [["match"]], 1],
    ["a single turn with other arguments", [["mismatchInput"]], 0],
    ["several matching turns, empty ones included", [["match", "matchMultiple", "emptyTools"]], 1],
    ["mixed turns: (1 + 0 + 1 + 0) / 4", [["match", "mismatchName", "matchMultiple", "mismatchOrder"]], 0.5],
    ["several conversations: (1 + 0 + 1 + 0 + 0 + 1) / 6", [["match", "mismatchInput"], ["matchMultiple"], ["mismatchOrder", "actualLonger", "match"]], 0.5],
    ["an expected call with mock_tool_output, which is not compared", [["matchWithMockOutput"]], 1],
    ["empty tool lists on both sides", [["emptyTools"]], 1],
    ["no calls where one was expected", [["emptyVsNonEmpty"]], 0],
    ["more calls than expected", [["actualLonger"]], 0],
    ["fewer calls than expected", [["expectedLonger"]], 0],
  ])("%s → %s", async (_name, conversations, expected) => {
    expect(await trajectoryScore(conversations)).toBe(expected);
  });
});

describe("ADK's older JSON form of a whole eval set", () => {
  it("reads [{name, data, initial_session}] as one case per entry, named by it, with its session input", async () => {
    const set = await parseEvalSet(
      [
        {
          name: "roll_17_sided_dice_twice",
          data: [
            { query: "What can you do?", expected_tool_use: [], expected_intermediate_agent_responses: [], reference: "I can roll dice." },
            { query: "Roll a 17 sided dice twice for me", expected_tool_use: [{ tool_name: "roll_die", tool_input: { sides: 17 } }, { tool_name: "roll_die", tool_input: { sides: 17 } }], reference: "Rolled 13 and 4." },
          ],
          initial_session: { state: { rolls: [] }, app_name: "hello_world", user_id: "user" },
        },
        { name: "no_session", data: [{ query: "hi", expected_tool_use: [], expected_intermediate_agent_responses: [{ author: "helper", text: "thinking" }], reference: "hello" }], initial_session: {} },
      ],
      "tests/hello.evalset.json",
    );
    expect(set.evalSetId).toBe("hello");
    expect(set.evalCases.map((evalCase) => evalCase.evalId)).toEqual(["roll_17_sided_dice_twice", "no_session"]);
    expect(set.evalCases[0]!.sessionInput).toEqual({ appName: "hello_world", userId: "user", state: { rolls: [] } });
    expect(set.evalCases[0]!.conversation[1]!.intermediateData!.toolUses).toEqual([
      { name: "roll_die", args: { sides: 17 } },
      { name: "roll_die", args: { sides: 17 } },
    ]);
    expect(set.evalCases[1]!.sessionInput).toBeUndefined();
    expect(set.evalCases[1]!.conversation[0]!.intermediateData!.intermediateResponses).toEqual([["helper", [{ text: "thinking" }]]]);
  });

  it("names the wrong field of an entry", async () => {
    await expect(parseEvalSet([{ name: "x", data: [{ expected_tool_use: [] }] }], "old.evalset.json")).rejects.toThrow("old.evalset.json is not an eval set in ADK's older JSON format (a list of {name, data, initial_session}): [0].data[0].query:");
  });
});

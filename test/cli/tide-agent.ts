/**
 * A temporary app for the terminal tests of `toolsmith run`: its model streams
 * each answer in chunks slower than the spinner turns (so a frame falls inside
 * every pause), and calls one tool that takes a moment.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The sentence streamed before the tool call. */
export const LOOKING = "Let me look that up in the tide tables.";
/** The sentence streamed from the tool's result. */
export const ANSWER = "High tide at Brest is at 14:32 today, so the boats can leave after lunch and be back well before dark.";
/** The answer to anything else. */
export const WELCOME = "You are welcome, fair winds!";
/** The pause before each streamed chunk: longer than the spinner's 80 ms frame. */
export const CHUNK_DELAY_MS = 150;

const AGENT_TS = `import { FunctionTool, LlmAgent, type LlmRequest } from "toolsmith";
import { FunctionModel, functionCallsResponse, lastFunctionResponse, lastUserText, streamedText } from "toolsmith/testing";

const lookUpTide = new FunctionTool({
  name: "look_up_tide",
  description: "The time of today's high tide at a harbour.",
  parameters: { type: "object", properties: { harbour: { type: "string" } }, required: ["harbour"] },
  execute: async ({ harbour }) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { harbour, highTide: "14:32" };
  },
});

function decide(request: LlmRequest) {
  if (lastFunctionResponse(request)) return streamedText(${JSON.stringify(ANSWER)});
  if (!/tide/i.test(lastUserText(request) ?? "")) return streamedText(${JSON.stringify(WELCOME)});
  const call = functionCallsResponse({ name: "look_up_tide", args: { harbour: "Brest" } });
  return [...streamedText(${JSON.stringify(LOOKING)}), call];
}

export const rootAgent = new LlmAgent({ name: "tides", model: new FunctionModel(decide, { chunkDelayMs: ${CHUNK_DELAY_MS} }), tools: [lookUpTide] });
`;

/**
 * Writes the app as `<dir>/agents/tides.ts`, with `toolsmith` resolving to
 * this checkout (a node_modules link, as an installed package would), and
 * returns the module's path.
 */
export function writeTideAgent(parent: string): string {
  const dir = mkdtempSync(join(parent, "tides-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(new URL("../../", import.meta.url).pathname, join(dir, "node_modules", "toolsmith"), "dir");
  mkdirSync(join(dir, "agents"));
  const path = join(dir, "agents", "tides.ts");
  writeFileSync(path, AGENT_TS);
  return path;
}

/** The lines a terminal shows for the replayed conversation (["when is high tide in Brest?", "thanks"]), after the opening line. */
export const TIDE_CONVERSATION_SCREEN: readonly string[] = [
  "you> when is high tide in Brest?",
  `tides: ${LOOKING}`,
  '  → look_up_tide({"harbour":"Brest"})',
  '  ← look_up_tide: {"harbour":"Brest","highTide":"14:32"}',
  `tides: ${ANSWER}`,
  "you> thanks",
  `tides: ${WELCOME}`,
];

import type { FunctionCall, FunctionResponse } from "../../content/content.js";
import type { Model } from "../../models/model.js";
import type { Rubric } from "../criteria.js";

/** What a judge is shown of one invocation. */
export interface JudgedTurn {
  userText: string;
  actualResponse: string;
  expectedResponse: string;
  actualToolUses: readonly FunctionCall[];
  expectedToolUses: readonly FunctionCall[];
  toolResponses: readonly FunctionResponse[];
}

/** Asks the judge model once and returns its text; an error of the model comes back as `undefined` (the sample is not counted). */
export async function askJudge(model: Model, prompt: string, abortSignal?: AbortSignal): Promise<string | undefined> {
  let text = "";
  try {
    const request = { contents: [{ role: "user", parts: [{ text: prompt }] }], systemInstruction: "", functionDeclarations: [], config: { temperature: 0 } };
    for await (const response of model.generateContent(request, { stream: false, abortSignal })) {
      if (response.partial) continue;
      text = (response.content?.parts ?? []).map((part) => (part.thought ? "" : (part.text ?? ""))).join("");
    }
  } catch {
    return undefined;
  }
  return text;
}

/**
 * The first JSON object in a judge's answer that parses: inside a ```json
 * fence or bare, with text around it. Judges wrap, comment and fence their
 * JSON; none of that should lose the verdict.
 */
export function extractJson(text: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  for (const candidate of [fenced, text]) {
    if (!candidate) continue;
    for (let start = candidate.indexOf("{"); start >= 0; start = candidate.indexOf("{", start + 1)) {
      let depth = 0;
      let inString = false;
      for (let index = start; index < candidate.length; index++) {
        const char = candidate[index];
        if (inString) {
          if (char === "\\") index++;
          else if (char === '"') inString = false;
        } else if (char === '"') inString = true;
        else if (char === "{") depth++;
        else if (char === "}" && --depth === 0) {
          try {
            const parsed: unknown = JSON.parse(candidate.slice(start, index + 1));
            if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
          } catch {
            // Not JSON after all: try the next brace.
          }
          break;
        }
      }
    }
  }
  return undefined;
}

function calls(list: readonly FunctionCall[]): string {
  return list.length ? list.map((call) => `- ${call.name}(${JSON.stringify(call.args ?? {})})`).join("\n") : "(none)";
}

function results(list: readonly FunctionResponse[]): string {
  return list.length ? list.map((response) => `- ${response.name} → ${JSON.stringify(response.response ?? {})}`).join("\n") : "(none)";
}

/** The prompt of `final_response_match_v2`: is the agent's answer equivalent to the expected one? */
export function finalResponseMatchPrompt(turn: JudgedTurn): string {
  return [
    "You judge whether an AI agent's answer to a user is valid, given a reference answer known to be correct.",
    "The answer is valid when it gives the user the same information and outcome as the reference. Wording, order, tone and extra helpful detail do not matter; a missing or contradicting fact, number, name or outcome makes it invalid.",
    "",
    `User's message:\n${turn.userText}`,
    "",
    `Reference answer:\n${turn.expectedResponse}`,
    "",
    `Agent's answer:\n${turn.actualResponse}`,
    "",
    'Reply with one JSON object and nothing else: {"reasoning": "<one or two sentences>", "is_the_agent_response_valid": "valid" | "invalid"}',
  ].join("\n");
}

/** A `final_response_match_v2` verdict: 1 for valid, 0 for invalid, undefined when the answer says neither. */
export function parseValidity(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const json = extractJson(text);
  const label = json ? String(json.is_the_agent_response_valid ?? json.verdict ?? json.label ?? "") : "";
  const found = (label || /is_the_agent_response_valid["'\s:]*(valid|invalid)/i.exec(text)?.[1] || [...text.matchAll(/\b(valid|invalid)\b/gi)].at(-1)?.[1] || "").toLowerCase();
  if (found === "valid") return 1;
  if (found === "invalid") return 0;
  return undefined;
}

/** The prompt of the rubric-based metrics: does the answer (or the tool use) have each property? */
export function rubricPrompt(turn: JudgedTurn, rubrics: readonly Rubric[], subject: "final_response" | "tool_use"): string {
  const shown =
    subject === "final_response"
      ? [`Agent's answer:\n${turn.actualResponse}`, "", `Tools the agent called:\n${calls(turn.actualToolUses)}`, "", `Tool results:\n${results(turn.toolResponses)}`]
      : [`Tools the agent called, in order:\n${calls(turn.actualToolUses)}`, "", `Tool results:\n${results(turn.toolResponses)}`];
  return [
    `You check an AI agent's ${subject === "final_response" ? "answer" : "use of tools"} against rubrics. For each rubric say "yes" when the property holds, otherwise "no".`,
    "",
    `User's message:\n${turn.userText}`,
    "",
    ...shown,
    "",
    "Rubrics:",
    ...rubrics.map((rubric) => `- [${rubric.rubricId}] ${rubric.text}`),
    "",
    'Reply with one JSON object and nothing else: {"rubrics": [{"rubric_id": "<id>", "verdict": "yes" | "no", "reason": "<short>"}]}',
  ].join("\n");
}

function yesNo(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  const text = String(value ?? "").trim().toLowerCase();
  if (["yes", "true", "pass", "passed", "1"].includes(text)) return true;
  if (["no", "false", "fail", "failed", "0"].includes(text)) return false;
  return undefined;
}

/** The verdict on each rubric a judge gave, by rubric id; rubrics it said nothing readable about are left out. */
export function parseRubricVerdicts(text: string | undefined, rubrics: readonly Rubric[]): Map<string, boolean> {
  const verdicts = new Map<string, boolean>();
  if (text === undefined) return verdicts;
  const list = extractJson(text)?.rubrics;
  if (Array.isArray(list)) {
    for (const [index, entry] of list.entries()) {
      if (!entry || typeof entry !== "object") continue;
      const record = entry as Record<string, unknown>;
      const id = String(record.rubric_id ?? record.rubricId ?? record.id ?? rubrics[index]?.rubricId ?? "");
      const verdict = yesNo(record.verdict ?? record.answer ?? record.passed);
      if (verdict !== undefined && rubrics.some((rubric) => rubric.rubricId === id)) verdicts.set(id, verdict);
    }
    return verdicts;
  }
  // No JSON: lines such as "[r1] yes" or "r1: no".
  for (const rubric of rubrics) {
    const escaped = rubric.rubricId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const match = new RegExp(`\\[?${escaped}\\]?\\W{0,5}(yes|no)\\b`, "i").exec(text);
    if (match) verdicts.set(rubric.rubricId, match[1]!.toLowerCase() === "yes");
  }
  return verdicts;
}

/** The prompt of `hallucinations_v1`: is each sentence of the answer backed by what the agent was told and what its tools returned? */
export function hallucinationPrompt(turn: JudgedTurn): string {
  return [
    "You check an AI agent's answer for claims nothing backs. Split the answer into sentences. Label each one:",
    '"supported" (the user\'s message or the tool results back it), "unsupported" (nothing backs it), "contradictory" (the context says otherwise), "disputed" (the context backs and contradicts it), or "not_applicable" (no claim: a greeting, a question, an offer to help).',
    "",
    `User's message:\n${turn.userText}`,
    "",
    `Tools the agent called:\n${calls(turn.actualToolUses)}`,
    "",
    `Tool results:\n${results(turn.toolResponses)}`,
    "",
    `Agent's answer:\n${turn.actualResponse}`,
    "",
    'Reply with one JSON object and nothing else: {"sentences": [{"sentence": "<text>", "label": "supported" | "unsupported" | "contradictory" | "disputed" | "not_applicable"}]}',
  ].join("\n");
}

/** The share of sentences that are supported or make no claim; 1 for an answer without sentences; undefined when unreadable. */
export function parseHallucinationScore(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const list = extractJson(text)?.sentences;
  let labels: string[];
  if (Array.isArray(list)) {
    labels = list.map((entry) => String((entry as Record<string, unknown> | null)?.label ?? "").toLowerCase().replace(/[\s-]+/g, "_"));
  } else {
    labels = [...text.matchAll(/\b(supported|unsupported|contradictory|disputed|not_applicable)\b/gi)].map((match) => match[1]!.toLowerCase());
    if (labels.length === 0) return undefined;
  }
  if (labels.length === 0) return 1;
  return labels.filter((label) => label === "supported" || label === "not_applicable").length / labels.length;
}

import { withPrintedJson } from "./harness/normalise.js";
import type { RunRecord } from "./harness/record.js";

/**
 * A place where toolsmith behaves differently from ADK on purpose. `align`
 * removes the difference from a record; it is applied to both ADK's fixture and
 * toolsmith's record before they are compared, so everything else still must match.
 */
export interface DeliberateDifference {
  /** The program (folder name) that shows the difference; `"*"` for a difference every program shows. */
  program: string;
  /** The heading of the docs/adk-compat.md section that explains why. */
  docsSection: string;
  /** The difference, in one sentence. */
  difference: string;
  align(record: RunRecord): RunRecord;
}

/** The request's contents without function-call ids. */
function withoutCallIds(record: RunRecord): RunRecord {
  const strip = (part: Record<string, unknown>) => {
    const inner = (part.functionCall ?? part.functionResponse) as Record<string, unknown> | undefined;
    if (!inner || !("id" in inner)) return part;
    const { id: _id, ...rest } = inner;
    return { ...part, [part.functionCall ? "functionCall" : "functionResponse"]: rest };
  };
  return { ...record, requests: record.requests.map((request) => ({ ...request, contents: request.contents.map((content) => ({ ...content, parts: content.parts.map(strip) })) })) };
}

/** The record with each printed line changed by `change`. */
function withOutput(record: RunRecord, change: (line: string) => string): RunRecord {
  return { ...record, output: record.output.map(change) };
}

/** A printed `State`, on one line and without ADK's `schema` field (toolsmith has no state schemas). */
function stateWithoutSchema(line: string): string {
  if (!line.includes("State {")) return line;
  return line.replace(/\s+/g, " ").replace(", schema: undefined", "");
}

/** An event printed as JSON, without an empty `longRunningToolIds`. */
function printedEventWithoutEmptyLongRunningIds(line: string): string {
  return withPrintedJson(line, (value) => {
    const event = value as Record<string, unknown>;
    if (!Array.isArray(event["longRunningToolIds"]) || event["longRunningToolIds"].length > 0) return event;
    const { longRunningToolIds: _ids, ...rest } = event;
    return rest;
  });
}

/** The record without the arguments of function calls, in the stored events and in the requests. */
function withoutCallArgs(record: RunRecord): RunRecord {
  const strip = (content: { parts: Array<Record<string, unknown>> }) => ({
    ...content,
    parts: content.parts.map((part) => (part.functionCall ? { ...part, functionCall: { ...(part.functionCall as object), args: "(left out)" } } : part)),
  });
  return {
    ...record,
    events: record.events.map((event) => (event.content ? { ...event, content: strip(event.content) } : event)),
    requests: record.requests.map((request) => ({ ...request, contents: request.contents.map(strip) })),
  };
}

/**
 * ADK's record as it would be had its `AgentTool` honoured `skipSummarization`: the model call after the
 * agent tool's result, its answer and what the program printed of it removed; and the flag removed from
 * toolsmith's record. What remains (the call, the inner agent's run, the result) must still match.
 */
function withoutSummaryAfter(toolName: string) {
  return (record: RunRecord): RunRecord => {
    const answersTool = (content: { parts: Array<Record<string, unknown>> } | undefined) =>
      content?.parts.some((part) => (part.functionResponse as { name?: string } | undefined)?.name === toolName) ?? false;
    const resultAt = record.events.findIndex((event) => answersTool(event.content));
    const summary = record.events.slice(resultAt + 1).find((event) => event.author === record.events[resultAt]?.author && event.content?.parts.some((part) => typeof part.text === "string"));
    const summaryText = summary?.content?.parts.map((part) => part.text ?? "").join("");
    const events = record.events
      .filter((event) => event !== summary)
      .map((event) => {
        if (!event.actions?.["skipSummarization"]) return event;
        const { skipSummarization: _flag, ...actions } = event.actions;
        const { actions: _actions, ...rest } = event;
        return Object.keys(actions).length > 0 ? { ...rest, actions } : rest;
      });
    return {
      ...record,
      events,
      requests: record.requests.filter((request) => !answersTool(request.contents.at(-1))),
      output: summaryText ? record.output.filter((line) => !line.endsWith(summaryText)) : record.output,
      unusedModelTurns: 0,
    };
  };
}

type Part = Record<string, unknown>;
const responseOf = (part: Part) => part.functionResponse as { name?: string; response?: { status?: unknown } } | undefined;
const isPausedPlaceholder = (part: Part) => responseOf(part)?.response?.status === "paused";
const isConfirmationAnswer = (part: Part) => responseOf(part)?.name === "adk_request_confirmation";

/**
 * Both records up to the person's answer to a confirmation: ADK 2.0 throws there (`Tool confirmation
 * rejected … confirmation_not_required`, its IntentMismatchError path) while toolsmith runs the confirmed
 * call and goes on. Also without toolsmith's placeholder response, which keeps each paused call answered.
 */
function untilConfirmationAnswer(record: RunRecord): RunRecord {
  const { error: _error, ...rest } = record;
  const answerAt = record.events.findIndex((event) => event.content?.parts.some(isConfirmationAnswer));
  const events = (answerAt < 0 ? record.events : record.events.slice(0, answerAt + 1)).filter((event) => !event.content?.parts.some(isPausedPlaceholder));
  const askedAt = record.output.findIndex((line) => line.includes("asks for confirmation"));
  const answeredCall = (request: RunRecord["requests"][number]) =>
    request.contents.some((content) => content.parts.some((part) => responseOf(part) !== undefined && !isPausedPlaceholder(part)));
  return { ...rest, events, output: record.output.slice(0, askedAt + 1), requests: record.requests.filter((request) => !answeredCall(request)), unusedModelTurns: 0 };
}

/** Every deliberate difference the programs show. Keep it to differences that are real and documented. */
export const DELIBERATE_DIFFERENCES: readonly DeliberateDifference[] = [
  {
    program: "*",
    docsSection: "Tools, agents and the history the model sees",
    difference: "function-call ids stay in the contents sent to the model (ADK removes its adk- ids), so OpenAI and Anthropic can pair results with calls",
    align: withoutCallIds,
  },
  ...["03-before-agent-callback", "04-after-agent-callback"].map((program) => ({
    program,
    docsSection: "Sessions, state and events",
    difference: "console.log(state) shows value and delta as ADK's does, but no schema field: toolsmith has no state schemas",
    align: (record: RunRecord) => withOutput(record, stateWithoutSchema),
  })),
  {
    program: "07-before-tool-callback",
    docsSection: "Sessions, state and events",
    difference: "a before-tool callback that changes args in place changes what the tool gets, not the stored call (ADK's stored call, and so the next request, shows the change)",
    align: withoutCallArgs,
  },
  ...[
    ["14-agent-as-tool", "summary_agent"],
    ["24-sample-agent-as-tool", "summary_agent"],
  ].map(([program, tool]) => ({
    program: program!,
    docsSection: "Tools, agents and the history the model sees",
    difference: "AgentTool's skipSummarization ends the turn with the inner agent's answer as documented (and as ADK Python does); ADK 2.0 for TypeScript ignores it and calls the model again",
    align: withoutSummaryAfter(tool!),
  })),
  ...["16-confirmation-boolean", "17-confirmation-advanced"].map((program) => ({
    program,
    docsSection: "Confirmation",
    difference: "a confirmed call runs and the turn goes on (ADK 2.0 rejects its own documented answer); while it waits, the call is answered with a paused placeholder",
    align: untilConfirmationAnswer,
  })),
  {
    program: "36-ready-made-tools",
    docsSection: "Tool classes and contexts",
    difference: "while get_user_choice waits for the person, toolsmith answers the call with a paused placeholder (ADK leaves it unanswered), which the choice replaces in the model's request",
    align: (record) => ({ ...record, events: record.events.filter((event) => !event.content?.parts.some(isPausedPlaceholder)) }),
  },
  {
    program: "29-custom-toolset",
    docsSection: "Runs",
    difference: "toolsets stay open across runs and close in runner.close() (ADK 2.0 closes every toolset at the end of each runAsync)",
    align: (record) => ({ ...record, output: record.output.filter((line) => !line.endsWith(".close() called")) }),
  },
  {
    program: "37-graph-workflow",
    docsSection: "Graph workflows",
    difference: "a node's event is stored before the next node runs, so the JoinNode's event comes before the user turn the agent node after it stores (ADK's agent node stores its turn while the runner has not yet stored the join's event)",
    align: (record) => {
      const events = [...record.events];
      const join = events.findIndex((event) => event.author === "facts");
      const lookup = events.findIndex((event) => event.author === "order_lookup");
      if (join > lookup + 1) events.splice(lookup + 1, 0, ...events.splice(join, 1));
      return { ...record, events };
    },
  },
  {
    program: "13-custom-agent-storyflow",
    docsSection: "Sessions, state and events",
    difference: "an event printed as JSON has no longRunningToolIds when there are none",
    align: (record) => withOutput(record, printedEventWithoutEmptyLongRunningIds),
  },
];

/** A record with the deliberate differences of its program removed. */
export function alignDeliberateDifferences(program: string, record: RunRecord): RunRecord {
  return DELIBERATE_DIFFERENCES.filter((entry) => entry.program === program || entry.program === "*").reduce((aligned, entry) => entry.align(aligned), record);
}

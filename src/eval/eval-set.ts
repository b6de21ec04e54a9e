import type { Content, FunctionCall, Part } from "../content/content.js";

/**
 * What an agent is expected to do between the user's message and its final
 * answer (ADK's `IntermediateData`): the tools it calls, in order, and what
 * sub-agents say on the way, as `[author, parts]` pairs.
 */
export interface IntermediateData {
  toolUses: FunctionCall[];
  intermediateResponses: Array<[string, Part[]]>;
}

/** One turn of a conversation (ADK's `Invocation`): the user's message and what the agent did and answered. */
export interface Invocation {
  invocationId: string;
  userContent: Content;
  finalResponse?: Content;
  intermediateData?: IntermediateData;
  /** Seconds since the epoch, as ADK writes it. */
  creationTimestamp: number;
}

/** How the session of an eval case starts (ADK's `SessionInput`). */
export interface SessionInput {
  appName: string;
  userId: string;
  state: Record<string, unknown>;
}

/** One conversation to replay and score (ADK's `EvalCase`). */
export interface EvalCase {
  evalId: string;
  conversation: Invocation[];
  sessionInput?: SessionInput;
  creationTimestamp: number;
}

/** A named set of eval cases (ADK's `EvalSet`), as stored in `<id>.evalset.json`. */
export interface EvalSet {
  evalSetId: string;
  name?: string;
  description?: string;
  evalCases: EvalCase[];
  creationTimestamp: number;
}

/** The text of a content as ADK's evaluators read it: the text of each part that has any, joined by new lines. */
export function contentText(content: Content | undefined): string {
  return (content?.parts ?? []).flatMap((part) => (part.text ? [part.text] : [])).join("\n");
}

/** The tool calls of an invocation, in order; none when it has no intermediate data. */
export function toolUsesOf(invocation: Invocation | undefined): FunctionCall[] {
  return invocation?.intermediateData?.toolUses ?? [];
}

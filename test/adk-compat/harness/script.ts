/**
 * The framework-neutral script of one program: what the user says and what the
 * scripted model answers, in the genai shapes both ADK and toolsmith accept.
 */

/** A genai-shaped part: the fields the programs' scripts use. */
export interface ScriptPart {
  text?: string;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
}

/** A genai-shaped content. */
export interface ScriptContent {
  role: "user" | "model";
  parts: ScriptPart[];
}

/**
 * One model answer. `when` picks the answer by the request's system instruction:
 * the first unused turn whose `when` text occurs in it (or that has no `when`) is
 * played, so agents running in parallel get their own answers in either order.
 */
export interface ScriptTurn {
  when?: string;
  content: ScriptContent;
}

/** A program's script. */
export interface ProgramScript {
  /** The user messages the program sends, in order. */
  userMessages: string[];
  /** The model's answers, in the order they are asked for. */
  modelTurns: ScriptTurn[];
}

/** The model part of a turn that answers with text. */
export function says(text: string, when?: string): ScriptTurn {
  return { ...(when === undefined ? {} : { when }), content: { role: "model", parts: [{ text }] } };
}

/** The model part of a turn that calls one or more functions. */
export function calls(functionCalls: Array<{ name: string; args?: Record<string, unknown> }>, when?: string): ScriptTurn {
  return {
    ...(when === undefined ? {} : { when }),
    content: { role: "model", parts: functionCalls.map((call) => ({ functionCall: { name: call.name, args: call.args ?? {} } })) },
  };
}

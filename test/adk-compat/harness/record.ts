/**
 * What one run of a program leaves behind, in a shape both frameworks produce:
 * the fixtures store it for ADK and the tests compare toolsmith's against them.
 */

/** A model request as the harness saw it, before normalising. */
export interface SeenRequest {
  systemInstruction: string;
  contents: unknown[];
  functionDeclarations: Array<{ name: string; parameters?: unknown }>;
  responseSchema?: unknown;
}

/** What the harness gathered during one run, before normalising. */
export interface RawRun {
  output: string[];
  requests: SeenRequest[];
  events: unknown[];
  error?: string;
}

/** The normalised record of one run. */
export interface RunRecord {
  /** Lines the program printed, function-call ids replaced by their order. */
  output: string[];
  /** Every model request, in order. */
  requests: NormalisedRequest[];
  /** Every event stored in a session, in order. */
  events: NormalisedEvent[];
  /** The message of the error `main()` threw, if it threw. */
  error?: string;
  /** Model turns of the script that were never asked for. */
  unusedModelTurns: number;
}

export interface NormalisedRequest {
  systemInstruction: string;
  contents: NormalisedContent[];
  functionDeclarations: Array<{ name: string; parameters?: unknown }>;
  responseSchema?: unknown;
}

export interface NormalisedContent {
  role?: string;
  parts: Array<Record<string, unknown>>;
}

export interface NormalisedEvent {
  author: string;
  content?: NormalisedContent;
  actions?: Record<string, unknown>;
  longRunningToolIds?: string[];
  errorCode?: string;
}

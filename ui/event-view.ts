import type { Part, ServerEvent } from "./api.js";
import { h, json } from "./dom.js";

const REQUEST_CONFIRMATION = "adk_request_confirmation";
const REQUEST_CREDENTIAL = "adk_request_credential";

/** One stored event: a one-line summary, expandable to its calls, responses, deltas, transfer and timing. */
export function eventView(event: ServerEvent, previous: ServerEvent | undefined): HTMLElement {
  const parts = event.content?.parts ?? [];
  // Code and its result are shown in the details (and by a badge), not as the event's text.
  const spoken = (event.inputTranscription ?? event.outputTranscription)?.text;
  const text = parts.filter((part) => part.text && !part.thought && !part.executableCode && !part.codeExecutionResult).map((part) => part.text).join("") || (spoken ?? "");
  const kinds = describeParts(parts);
  // What a live run heard or said aloud, as its transcription.
  if (spoken) kinds.push("spoken");
  if (event.interrupted) kinds.push("interrupted");
  const elapsed = previous ? `+${Math.max(0, event.timestamp - previous.timestamp)} ms` : new Date(event.timestamp).toLocaleTimeString();
  const details: Node[] = [];
  for (const part of parts) {
    if (part.functionCall) details.push(h("div", { class: "detail" }, h("b", {}, `call ${part.functionCall.name}`), ` id ${part.functionCall.id ?? ""}`, json(part.functionCall.args ?? {})));
    if (part.functionResponse) details.push(h("div", { class: "detail" }, h("b", {}, `response ${part.functionResponse.name}`), json(part.functionResponse.response)));
    if (part.inlineData) details.push(h("div", { class: "detail" }, h("b", {}, "inline data"), ` ${part.inlineData.mimeType}`));
    if (part.executableCode) details.push(h("div", { class: "detail", "data-testid": "code" }, h("b", {}, "code"), h("pre", {}, part.executableCode.code ?? "")));
    if (part.codeExecutionResult) details.push(h("div", { class: "detail", "data-testid": "code-result" }, h("b", {}, `code result (${outcomeWord(part.codeExecutionResult.outcome)})`), h("pre", {}, part.codeExecutionResult.output ?? part.text ?? "")));
  }
  const actions = event.actions ?? { stateDelta: {}, artifactDelta: {} };
  if (Object.keys(actions.stateDelta ?? {}).length) details.push(h("div", { class: "detail" }, h("b", {}, "state delta"), json(actions.stateDelta)));
  if (Object.keys(actions.artifactDelta ?? {}).length) details.push(h("div", { class: "detail" }, h("b", {}, "artifact delta"), json(actions.artifactDelta)));
  if (actions.transferToAgent) details.push(h("div", { class: "detail" }, h("b", {}, "transfer"), ` to ${actions.transferToAgent}`));
  if (actions.escalate) details.push(h("div", { class: "detail" }, h("b", {}, "escalate")));
  if (event.errorCode) details.push(h("div", { class: "detail error", "data-testid": "event-error" }, h("b", {}, `error ${event.errorCode}`), ` ${event.errorMessage ?? ""}`));
  details.push(h("div", { class: "detail meta" }, `event ${event.id} · invocation ${event.invocationId}${event.branch ? ` · branch ${event.branch}` : ""} · ${new Date(event.timestamp).toISOString()}`));
  const role = event.author === "user" ? "user" : "agent";
  return h(
    "details",
    { class: `event ${role}`, "data-testid": "event", "data-kind": kinds.join(" ") || "text" },
    h(
      "summary",
      {},
      h("span", { class: "author" }, event.author),
      text ? h("span", { class: "text", "data-testid": "event-text" }, text) : null,
      kinds.map((kind) => h("span", { class: `badge ${kind.split(":")[0]}` }, kind)),
      actions.transferToAgent ? h("span", { class: "badge transfer" }, `transfer → ${actions.transferToAgent}`) : null,
      h("span", { class: "elapsed" }, elapsed),
    ),
    details,
  );
}

/**
 * Whether an event only marks the end of a live turn (`turnComplete`, stored as ADK stores it), with nothing to read:
 * the list leaves it out.
 */
export function isTurnEndMarker(event: ServerEvent): boolean {
  return Boolean(event.turnComplete && !event.content?.parts?.length && !event.inputTranscription && !event.outputTranscription && !event.errorCode && !event.interrupted);
}

function describeParts(parts: readonly Part[]): string[] {
  const kinds: string[] = [];
  for (const part of parts) {
    const call = part.functionCall;
    if (call?.name === REQUEST_CONFIRMATION) kinds.push("confirmation requested");
    else if (call?.name === REQUEST_CREDENTIAL) kinds.push("credential requested");
    else if (call) kinds.push(`call: ${call.name}`);
    const response = part.functionResponse;
    if (response) kinds.push(`response: ${response.name}${response.response.status ? ` (${String(response.response.status)})` : ""}`);
    if (part.executableCode) kinds.push("code");
    if (part.codeExecutionResult) kinds.push(`code result: ${outcomeWord(part.codeExecutionResult.outcome)}`);
  }
  return kinds;
}

/** genai's outcome of a run of code, in a word. */
function outcomeWord(outcome: string | undefined): string {
  return outcome === "OUTCOME_OK" ? "ok" : outcome === "OUTCOME_FAILED" ? "failed" : outcome === "OUTCOME_DEADLINE_EXCEEDED" ? "timed out" : "unknown";
}

/** The text a partial event adds to the turn being streamed (thoughts left out). */
export function streamedText(event: ServerEvent): string {
  return (event.content?.parts ?? []).map((part) => (part.thought ? "" : (part.text ?? ""))).join("");
}

/** The streamed text of a turn, shown while the model writes it. */
export function streamingView(author: string, text: string): HTMLElement {
  return h("div", { class: "event agent streaming", "data-testid": "streaming" }, h("span", { class: "author" }, author), h("span", { class: "text" }, text), h("span", { class: "cursor" }, "▍"));
}

/** A server log message (`mcpLog`) a tool call streamed. */
interface LogNote {
  level: string;
  logger?: string;
  data: unknown;
}

/** How far a tool call has got (`toolProgress`). */
interface ProgressNote {
  functionCallId: string;
  progress: number;
  total?: number;
  message?: string;
}

/** Whether a streamed event is a note of a call in flight (a log message or progress) rather than text. */
export function isActivity(event: ServerEvent): boolean {
  return Boolean(event.customMetadata?.mcpLog ?? event.customMetadata?.toolProgress);
}

/** The function call a progress note is about, so a newer note replaces it. */
export function progressCallId(event: ServerEvent): string | undefined {
  return (event.customMetadata?.toolProgress as ProgressNote | undefined)?.functionCallId;
}

/** One line for a note of a call in flight: a server's log message with its level, or a progress bar. */
export function activityView(event: ServerEvent): HTMLElement | null {
  const log = event.customMetadata?.mcpLog as LogNote | undefined;
  if (log) {
    return h(
      "div",
      { class: `activity log level-${log.level}`, "data-testid": "mcp-log", "data-level": log.level },
      h("span", { class: "author" }, event.author),
      h("span", { class: `badge log level-${log.level}` }, `log ${log.level}`),
      log.logger ? h("span", { class: "logger" }, log.logger) : null,
      h("span", { class: "text" }, typeof log.data === "string" ? log.data : JSON.stringify(log.data)),
    );
  }
  const progress = event.customMetadata?.toolProgress as ProgressNote | undefined;
  if (!progress) return null;
  const figures = `${progress.progress}${progress.total !== undefined ? ` / ${progress.total}` : ""}`;
  return h(
    "div",
    { class: "activity progress", "data-testid": "tool-progress", "data-call": progress.functionCallId },
    h("span", { class: "author" }, event.author),
    h("progress", { value: progress.progress, max: progress.total }),
    h("span", { class: "text" }, progress.message ? `${figures} · ${progress.message}` : figures),
  );
}

import { getText, type Content } from "../../content/content.js";
import { ConfigurationError, ToolsmithError } from "../../errors/toolsmith-error.js";
import { createCompactedEvent, isCompactedEvent, type CompactedEvent } from "../../events/compacted-event.js";
import type { Event } from "../../events/event.js";
import { createLlmRequest } from "../../models/llm-request.js";
import type { LlmResponse } from "../../models/llm-response.js";
import type { Model } from "../../models/model.js";
import { resolveModel } from "../../models/model-registry.js";

/** A compaction that could not be made: the summariser failed or gave nothing. Nothing stored is removed. */
export class CompactionError extends ToolsmithError {}

/** What a summariser is given besides the events. */
export interface SummarizeOptions {
  /** The compacting agent's model, used when the summariser names none of its own. */
  model?: Model;
  /** Aborts the summariser's model call with the run. */
  abortSignal?: AbortSignal;
}

/**
 * Turns older events into one compaction record (ADK's `BaseSummarizer`).
 * The events may begin with the previous record, whose summary the new one
 * must carry on.
 */
export interface BaseSummarizer {
  summarize(events: readonly Event[], options?: SummarizeOptions): Promise<CompactedEvent>;
}

/** Options of {@link LlmSummarizer}. */
export interface LlmSummarizerOptions {
  /** The model that writes summaries, an instance or a name; the compacting agent's own model when absent. */
  llm?: Model | string;
  /** What the model is asked before the events; a built-in request to summarise when absent. */
  prompt?: string;
}

const DEFAULT_PROMPT = [
  "Below is the earlier part of a conversation between a user and an AI agent, with the tools the agent called and what they returned.",
  "Write a summary the agent can continue the work from: the user's goals and instructions, decisions made, facts and results learned, what is done and what is still open.",
  "Keep names, numbers, identifiers and file paths exactly as they appear (a result saved to a file can be read again from its path). Be concise.",
].join(" ");

/**
 * ADK's `LlmSummarizer`: asks a model, through the {@link Model} contract, to
 * summarise events. The events are written out as text: each one's author,
 * its texts, its tool calls and results as JSON (a result the agent saved to a
 * file appears as the preview and path it was stored with), and an earlier
 * summary as such.
 *
 * @example
 * ```ts
 * const summarizer = new LlmSummarizer({ llm: "gemini-2.5-flash-lite" });
 * const agent = new LlmAgent({ name: "worker", model, contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 100_000, eventRetentionSize: 20, summarizer })] });
 * ```
 */
export class LlmSummarizer implements BaseSummarizer {
  readonly #llm?: Model | string;
  readonly #prompt: string;
  #resolved?: Promise<Model>;

  constructor(options: LlmSummarizerOptions = {}) {
    this.#llm = options.llm;
    this.#prompt = options.prompt || DEFAULT_PROMPT;
  }

  async summarize(events: readonly Event[], options: SummarizeOptions = {}): Promise<CompactedEvent> {
    const first = events[0];
    const last = events.at(-1);
    if (!first || !last) throw new CompactionError("COMPACTION_FAILED", "LlmSummarizer.summarize was given no events; pass the events to summarise.");
    const model = await this.#model(options.model);
    const request = createLlmRequest({ model: model.name, contents: [{ role: "user", parts: [{ text: `${this.#prompt}\n\n${formatEvents(events)}` }] }] });
    let answer: LlmResponse | undefined;
    for await (const response of model.generateContent(request, { stream: false, abortSignal: options.abortSignal })) if (!response.partial) answer = response;
    if (answer?.errorCode) {
      throw new CompactionError("COMPACTION_FAILED", `The summariser model ${model.name} answered with an error (${answer.errorCode}${answer.errorMessage ? `: ${answer.errorMessage}` : ""}).`);
    }
    const summary = getText(answer?.content).trim();
    if (!summary) throw new CompactionError("COMPACTION_FAILED", `The summariser model ${model.name} returned no text; check that it answers a plain text request.`);
    return createCompactedEvent({
      invocationId: "",
      author: "system",
      startTime: isCompactedEvent(first) ? first.startTime : first.timestamp,
      endTime: last.timestamp,
      compactedContent: summary,
      compactedThroughEventId: isCompactedEvent(last) ? last.compactedThroughEventId : last.id,
      compactedEventCount: events.reduce((count, event) => count + (isCompactedEvent(event) ? event.compactedEventCount : 1), 0),
    });
  }

  #model(fallback: Model | undefined): Promise<Model> {
    if (typeof this.#llm === "object") return Promise.resolve(this.#llm);
    if (typeof this.#llm === "string") {
      // A name that fails to resolve (a missing key, say) is tried again next time rather than failing for good.
      return (this.#resolved ??= resolveModel(this.#llm).catch((error: unknown) => {
        this.#resolved = undefined;
        throw error;
      }));
    }
    if (fallback) return Promise.resolve(fallback);
    return Promise.reject(new ConfigurationError("NO_MODEL", "LlmSummarizer has no model: give it one ({ llm }) or use it in an agent's TokenBasedContextCompactor, which lends it the agent's model."));
  }
}

/** The events as the summariser reads them. */
export function formatEvents(events: readonly Event[]): string {
  return events.map((event, index) => `[Event ${index + 1} - Author: ${event.author}]\n${isCompactedEvent(event) ? `Summary of the conversation before:\n${event.compactedContent}` : formatContent(event.content)}`).join("\n\n");
}

function formatContent(content: Content | undefined): string {
  const lines: string[] = [];
  for (const part of content?.parts ?? []) {
    if (part.thought) continue;
    if (part.text) lines.push(part.text);
    if (part.functionCall) lines.push(`Called ${part.functionCall.name} with ${JSON.stringify(part.functionCall.args ?? {})}`);
    if (part.functionResponse) lines.push(`${part.functionResponse.name} returned ${JSON.stringify(part.functionResponse.response)}`);
  }
  return lines.join("\n");
}

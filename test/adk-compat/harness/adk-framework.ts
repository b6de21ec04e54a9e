import { BaseLlm, Gemini, InMemorySessionService, LLMRegistry, LogLevel, setLogLevel, type BaseLlmConnection, type LlmRequest, type LlmResponse } from "@google/adk";
import { instructionText } from "./instruction-text.js";
import type { SeenRequest } from "./record.js";
import { currentRun } from "./run-program.js";

/**
 * ADK's side of the harness: a `BaseLlm` that answers from the running
 * program's script for every Gemini model name, and a recorder of every event
 * an `InMemorySessionService` stores.
 *
 * ADK's `LLMRegistry.resolve` walks its map of patterns in insertion order and
 * takes the first match, so a new `/gemini-.*\/` registered after `Gemini`'s
 * would never be reached; `register` replaces an entry only when the key is
 * the same object. The scripted class therefore registers Gemini's own
 * pattern objects, which replaces Gemini's entries in place.
 */
class ScriptedGemini extends BaseLlm {
  static override readonly supportedModels: Array<string | RegExp> = Gemini.supportedModels;

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const content = currentRun().answer(seenRequest(request));
    yield { content };
  }

  override connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error("The scripted model has no live connection."));
  }
}

/** The parts of ADK's request the records compare. */
function seenRequest(request: LlmRequest): SeenRequest {
  const config = request.config ?? {};
  const declarations = (config.tools ?? []).flatMap((tool) => ("functionDeclarations" in tool ? (tool.functionDeclarations ?? []) : []));
  // Built-in Gemini tools (googleSearch, codeExecution…) are entries without declarations: record them by name.
  const builtIns = (config.tools ?? []).flatMap((tool) => Object.keys(tool).filter((key) => key !== "functionDeclarations").map((key) => ({ name: `builtin:${key}` })));
  const seen: SeenRequest = {
    systemInstruction: instructionText(config.systemInstruction),
    contents: request.contents,
    functionDeclarations: declarations.map((declaration): { name: string; parameters?: unknown } => ({
      name: declaration.name ?? "",
      parameters: declaration.parametersJsonSchema ?? declaration.parameters,
    })).concat(builtIns),
  };
  const responseSchema = config.responseJsonSchema ?? config.responseSchema;
  if (responseSchema !== undefined) seen.responseSchema = responseSchema;
  return seen;
}

let installed = false;

/** Registers the scripted model and the session recorder with ADK, once per process. */
export function installAdkHarness(): void {
  if (installed) return;
  installed = true;
  // Replacing a class logs both classes' source at INFO; that is noise in every run.
  setLogLevel(LogLevel.ERROR);
  LLMRegistry.register(ScriptedGemini as unknown as Parameters<typeof LLMRegistry.register>[0]);
  setLogLevel(LogLevel.INFO);
  const appendEvent = InMemorySessionService.prototype.appendEvent;
  InMemorySessionService.prototype.appendEvent = async function (this: InMemorySessionService, request) {
    const stored = await appendEvent.call(this, request);
    if (!request.event.partial) currentRun().recordEvent(request.event);
    return stored;
  };
}

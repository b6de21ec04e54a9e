import { InMemorySessionService, registerModelProvider, type LlmRequest } from "toolsmith";
import { FunctionModel } from "toolsmith/testing";
import { instructionText } from "./instruction-text.js";
import type { SeenRequest } from "./record.js";
import { currentRun } from "./run-program.js";

/**
 * toolsmith's side of the harness: a provider for every Gemini model name
 * whose model answers from the running program's script (registered providers
 * win over the built-in ones), and a recorder of every event an
 * `InMemorySessionService` stores.
 */
let installed = false;

/** Registers the scripted model and the session recorder with toolsmith, once per process. */
export function installToolsmithHarness(): void {
  if (installed) return;
  installed = true;
  registerModelProvider(/^gemini-/, (name) => new FunctionModel((request) => ({ content: currentRun().answer(seenRequest(request)) }), { name }));
  const appendEvent = InMemorySessionService.prototype.appendEvent;
  InMemorySessionService.prototype.appendEvent = async function (this: InMemorySessionService, request) {
    const stored = await appendEvent.call(this, request);
    if (!request.event.partial) currentRun().recordEvent(stored);
    return stored;
  };
}

/** The parts of toolsmith's request the records compare. */
function seenRequest(request: LlmRequest): SeenRequest {
  const seen: SeenRequest = {
    systemInstruction: instructionText(request.systemInstruction),
    contents: request.contents,
    functionDeclarations: request.functionDeclarations
      .map((declaration): { name: string; parameters?: unknown } => ({ name: declaration.name, parameters: declaration.parameters }))
      .concat(builtInTools(request.config["tools"])),
  };
  const responseSchema = request.config["responseJsonSchema"] ?? request.config["responseSchema"];
  if (responseSchema !== undefined) seen.responseSchema = responseSchema;
  return seen;
}

/** Built-in Gemini tools (googleSearch, codeExecution…) given as genai `config.tools` entries, by name, as the ADK side records them. */
function builtInTools(tools: unknown): Array<{ name: string }> {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) => Object.keys(tool as object).filter((key) => key !== "functionDeclarations").map((key) => ({ name: `builtin:${key}` })));
}

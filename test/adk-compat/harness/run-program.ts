import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format } from "node:util";
import { normaliseRun } from "./normalise.js";
import type { RawRun, RunRecord, SeenRequest } from "./record.js";
import type { ProgramScript, ScriptContent } from "./script.js";
import { ScriptPlayer } from "./script-player.js";

/** The folder that holds the programs, one folder each. */
export const PROGRAMS_FOLDER = fileURLToPath(new URL("../programs/", import.meta.url));

/** The folder that holds ADK's recorded runs. */
export const FIXTURES_FOLDER = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** Every program's folder name (`<nn>-<name>`), in order. */
export function listPrograms(): string[] {
  return readdirSync(PROGRAMS_FOLDER, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** What a framework's scripted model and session recorder call during a run. */
export interface RunHooks {
  /** The scripted answer to a model request. */
  answer(request: SeenRequest): ScriptContent;
  /** Records an event a session service stored. */
  recordEvent(event: unknown): void;
}

let activeHooks: RunHooks | undefined;

/** The hooks of the run under way; the frameworks' scripted models and recorders call them. */
export function currentRun(): RunHooks {
  if (!activeHooks) throw new Error("No program run is under way: call runProgram.");
  return activeHooks;
}

/**
 * Runs one program's `adk.ts` or `toolsmith.ts` (whose framework's scripted
 * model and session recorder must be installed first) and returns its
 * normalised record. Runs must not overlap: the hooks are process-wide, as the
 * frameworks' model registries are.
 */
export async function runProgram(program: string, entryFile: "adk.ts" | "toolsmith.ts"): Promise<RunRecord> {
  if (activeHooks) throw new Error("A program run is already under way; run programs one at a time.");
  const folder = new URL(`${program}/`, pathToFileURL(PROGRAMS_FOLDER));
  const { script } = (await import(new URL("script.ts", folder).href)) as { script: ProgramScript };
  const player = new ScriptPlayer(script.modelTurns);
  const raw: RawRun = { output: [], requests: [], events: [] };
  activeHooks = {
    answer(request) {
      raw.requests.push(structuredClone(request));
      return player.answer(request.systemInstruction);
    },
    recordEvent(event) {
      raw.events.push(structuredClone(plainForCloning(event)));
    },
  };
  const restoreConsole = captureConsole(raw.output);
  try {
    const program = (await import(new URL(entryFile, folder).href)) as { main?: () => Promise<void> };
    if (typeof program.main !== "function") throw new Error(`${program}/${entryFile} does not export main().`);
    await program.main();
  } catch (error) {
    raw.error = error instanceof Error ? error.message : String(error);
  } finally {
    restoreConsole();
    activeHooks = undefined;
  }
  return normaliseRun(raw, player.unusedTurns);
}

/** Sends what the program prints to `lines` instead of the terminal; returns the function that undoes it. */
function captureConsole(lines: string[]): () => void {
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const originals = methods.map((method) => console[method]);
  for (const method of methods) console[method] = (...args: unknown[]) => void lines.push(format(...args));
  return () => methods.forEach((method, index) => (console[method] = originals[index]!));
}

/** Events can hold class instances and functions; structuredClone needs plain data. */
function plainForCloning(value: unknown): unknown {
  if (typeof value === "function") return undefined;
  if (value instanceof Map) return new Map([...value].map(([key, field]) => [key, plainForCloning(field)]));
  if (value instanceof Set) return new Set([...value].map(plainForCloning));
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(plainForCloning);
  if (typeof value !== "object" || value === null) return value;
  const plain: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) plain[key] = plainForCloning(field);
  return plain;
}

import { BackendError } from "./filesystem/backend.js";
import { endSentence } from "../../errors/sentence.js";

/** A built-in tool's failure, in the shape every built-in tool uses: `message` says what to do instead. */
export function errorResult(message: string, details: Record<string, unknown> = {}): Record<string, unknown> {
  return { status: "error", message, ...details };
}

/**
 * Runs a tool body and turns any failure into an error result, so a built-in
 * tool never throws at the model: a {@link BackendError} keeps its message,
 * anything else is reported with a hint to try differently.
 */
export async function withErrorResult(work: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackendError) return errorResult(error.message, { code: error.code });
    return errorResult(`The operation failed: ${endSentence((error as Error)?.message ?? String(error))} Check the arguments or try another approach.`);
  }
}

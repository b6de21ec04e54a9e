import type { Part } from "../content/content.js";

/**
 * How a call that waits for the client is represented: by the response it
 * holds meanwhile, `{status: "paused", waitingFor, message}`. The model reads
 * that response if the user moves on without answering, and a resume finds
 * the calls to finish by it.
 */

/** What a paused call waits for. `client` means an inner agent is waiting for one of the others. */
export type PauseReason = "confirmation" | "credential" | "client";

const MESSAGES: Record<PauseReason, string> = {
  confirmation: "This call is waiting for the user's confirmation and has not run. It will run if the user approves.",
  credential: "This call is waiting for the user to provide a credential and has not run yet.",
  client: "This call is waiting for the user's answer to a request and has not finished yet.",
};

/** The response a paused call holds until the client answers. */
export function pausedResponse(reason: PauseReason): Record<string, unknown> {
  return { status: "paused", waitingFor: reason, message: MESSAGES[reason] };
}

/** The pause reason of a response, if it is a paused one. */
export function pauseReasonOf(response: Record<string, unknown> | undefined): PauseReason | undefined {
  return response?.status === "paused" ? (response.waitingFor as PauseReason) : undefined;
}

/**
 * The ids of the calls these parts give their final response (not the paused placeholder): long-running calls that
 * no longer wait. `undefined` for parts that give none, most events, so no list is made for them.
 */
export function settledCallIds(parts: readonly Part[] | undefined): string[] | undefined {
  let ids: string[] | undefined;
  for (const part of parts ?? []) {
    const response = part.functionResponse;
    if (response?.id && pauseReasonOf(response.response) === undefined) (ids ??= []).push(response.id);
  }
  return ids;
}

/**
 * ADK's names for `runConfig.streamingMode`: `StreamingMode.SSE` streams partial
 * text events as the model produces them. `BIDI` (live audio and video) is not
 * supported by toolsmith; a run given it ends with an error.
 */
export const StreamingMode = { NONE: "none", SSE: "sse", BIDI: "bidi" } as const;

/** One of {@link StreamingMode}'s values. */
export type StreamingMode = (typeof StreamingMode)[keyof typeof StreamingMode];

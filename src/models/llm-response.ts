import type { Content } from "../content/content.js";

/**
 * Token counts reported by the model, named as Gemini names them and meaning
 * the same for every provider (the adapters convert): `promptTokenCount` is all
 * input, cached included; `cachedContentTokenCount` the part of it read from a
 * cache; `candidatesTokenCount` the answer without reasoning;
 * `thoughtsTokenCount` the reasoning, where the provider counts it apart;
 * `totalTokenCount` input plus output. The provider's own figures are kept in
 * the response's `customMetadata.providerUsage`.
 */
export interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

/** A source the answer quotes or cites, with the span of the text it backs (genai's `Citation`). */
export interface Citation {
  startIndex?: number;
  endIndex?: number;
  uri?: string;
  title?: string;
  license?: string;
}

/** The sources an answer cites: OpenAI's URL and file annotations, Claude's citations, Gemini's recitations. */
export interface CitationMetadata {
  citations?: Citation[];
}

/** A web page Gemini's search or URL context drew on. */
export interface GroundingChunkWeb {
  uri?: string;
  title?: string;
  domain?: string;
}

/** A document a retrieval tool drew on. */
export interface GroundingChunkRetrievedContext {
  uri?: string;
  title?: string;
  text?: string;
}

/** One source of a grounded answer. */
export interface GroundingChunk {
  web?: GroundingChunkWeb;
  retrievedContext?: GroundingChunkRetrievedContext;
}

/** A span of the answer's text. */
export interface Segment {
  startIndex?: number;
  endIndex?: number;
  partIndex?: number;
  text?: string;
}

/** Which sources (indices into `groundingChunks`) back one span of the answer. */
export interface GroundingSupport {
  segment?: Segment;
  groundingChunkIndices?: number[];
  confidenceScores?: number[];
}

/** The search suggestions Google requires grounded answers to show, as HTML. */
export interface SearchEntryPoint {
  renderedContent?: string;
  sdkBlob?: string;
}

/**
 * How Gemini grounded its answer in Google Search (or other sources): the
 * queries it ran, the pages it used, and which span each supports. A subset of
 * genai's `GroundingMetadata` with its names, so values pass both ways.
 */
export interface GroundingMetadata {
  webSearchQueries?: string[];
  groundingChunks?: GroundingChunk[];
  groundingSupports?: GroundingSupport[];
  searchEntryPoint?: SearchEntryPoint;
  retrievalMetadata?: { googleSearchDynamicRetrievalScore?: number };
}

/** One response from a model, or one chunk of a streamed response when `partial` is set. */
export interface LlmResponse {
  content?: Content;
  /** Set by Gemini when its answer is grounded (Google Search, URL context). */
  groundingMetadata?: GroundingMetadata;
  /** Sources the answer cites, as genai's `citationMetadata`; each provider's own citation objects are in `customMetadata.citations`. */
  citationMetadata?: CitationMetadata;
  /** A streamed chunk; the complete response follows it. Partial events are never stored. */
  partial?: boolean;
  turnComplete?: boolean;
  finishReason?: string;
  usageMetadata?: UsageMetadata;
  /** Set when the call failed; `errorMessage` says why. */
  errorCode?: string;
  errorMessage?: string;
  customMetadata?: Record<string, unknown>;
  /** Live runs: the user spoke over the model, which stopped its answer. */
  interrupted?: boolean;
  /** Live runs: what the user said, as text (pieces with `finished: false`, then the whole with `finished: true`). */
  inputTranscription?: Transcription;
  /** Live runs: what the model said aloud, as text. */
  outputTranscription?: Transcription;
  /** Live runs: a handle with which a new connection takes up this session where it was. */
  liveSessionResumptionUpdate?: LiveSessionResumptionUpdate;
  /** Live runs: the server will close the connection soon; the run reconnects with the latest resumption handle. */
  goAway?: LiveGoAway;
  /** The model version that answered, where the provider says. */
  modelVersion?: string;
}

/** Speech as text, in a live run (genai's `Transcription`). */
export interface Transcription {
  text?: string;
  /** Set on the whole transcription, after its pieces. */
  finished?: boolean;
}

/** The server's offer to resume a live session (genai's `LiveServerSessionResumptionUpdate`). */
export interface LiveSessionResumptionUpdate {
  newHandle?: string;
  resumable?: boolean;
  lastConsumedClientMessageIndex?: string;
}

/** The server's notice that it will close a live connection (genai's `LiveServerGoAway`). */
export interface LiveGoAway {
  /** How long until it closes, as a duration (`"10s"`). */
  timeLeft?: string;
}

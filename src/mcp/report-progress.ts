import type { ToolContext } from "../tools/tool-context.js";

/** How far a tool's work has got. */
export interface ProgressUpdate {
  /** Grows with each update. */
  progress: number;
  total?: number;
  message?: string;
}

/** A tool context that can pass progress on; the MCP server gives served tools one. */
interface ProgressReportingContext {
  reportProgress?(update: ProgressUpdate): unknown;
}

/**
 * Reports progress from a tool, when whoever runs it can pass progress on:
 * toolsmith's MCP server sends it to the client as `notifications/progress`
 * (when the client asked for progress); in a run, the tool context's own
 * `reportProgress` streams it as a partial event.
 * `MCPToolset` tools report what their server sends in the same way, so an
 * MCP server behind a toolsmith MCP server has its progress relayed.
 *
 * @example
 * ```ts
 * execute: async ({ files }, context) => {
 *   for (const [index, file] of files.entries()) { await convert(file); reportProgress(context, { progress: index + 1, total: files.length }); }
 * }
 * ```
 */
export function reportProgress(context: ToolContext, update: ProgressUpdate): void {
  (context as ProgressReportingContext).reportProgress?.(update);
}

/** Gives a context a progress reporter (used by the MCP server for the contexts of served calls). */
export function withProgressReporter(context: ToolContext, reporter: (update: ProgressUpdate) => void): ToolContext {
  (context as ProgressReportingContext).reportProgress = reporter;
  return context;
}

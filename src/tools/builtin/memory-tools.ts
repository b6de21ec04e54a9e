import { LoadMemoryTool, PreloadMemoryTool } from "../memory-and-loop-tools.js";
import type { Tool } from "../tool.js";

/** `load_memory(query)`: searches the user's long-term memory; ADK's `LoadMemoryTool`. */
export function createLoadMemoryTool(): Tool {
  return new LoadMemoryTool();
}

/**
 * `preload_memory`: no tool call; before each model call it searches memory
 * with the user's latest message and adds what it finds to the instructions.
 * Without a memory service it adds nothing. ADK's `PreloadMemoryTool`.
 */
export function createPreloadMemoryTool(): Tool {
  return new PreloadMemoryTool();
}

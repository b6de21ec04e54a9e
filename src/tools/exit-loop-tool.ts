import { EXIT_LOOP } from "./memory-and-loop-tools.js";

/**
 * Ends the enclosing `LoopAgent`: the call escalates, and its response is the
 * final one of the turn (no model call follows it). The same tool as ADK's
 * `EXIT_LOOP`.
 */
export const exitLoop = EXIT_LOOP;

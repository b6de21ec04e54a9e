import { readFileSync } from "node:fs";

/**
 * Whether a process still runs. A killed process may stay a zombie until its new parent reaps it (a container's
 * first process may never do so), and `process.kill(pid, 0)` still finds a zombie: its state is read instead.
 */
export function processRuns(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

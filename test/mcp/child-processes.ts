import { execFileSync } from "node:child_process";

/** Process ids of this process's children whose command line contains `text`. */
export function childProcessesMatching(text: string): number[] {
  let listing = "";
  try {
    listing = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" });
  } catch {
    return []; // ps exits 1 when there are no children
  }
  return listing
    .split("\n")
    .filter((line) => line.includes(text))
    .map((line) => Number.parseInt(line.trim(), 10));
}

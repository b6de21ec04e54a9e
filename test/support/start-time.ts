/**
 * The wall time of fresh Node processes, for import costs: each command is
 * started `runs` times, the commands taking turns, so that a machine getting
 * busier or quieter during the measurement moves every figure alike.
 */
import { spawnSync } from "node:child_process";

/** A process to time: the Node flags and arguments, and where it runs. */
export interface StartCommand {
  name: string;
  args: readonly string[];
  cwd: string;
}

/** The median wall time, in milliseconds, of each command (by name). */
export function medianStartTimes(commands: readonly StartCommand[], runs: number): Map<string, number> {
  const times = new Map<string, number[]>(commands.map((command) => [command.name, []]));
  for (const command of commands) start(command); // warm the disk cache; not counted
  for (let round = 0; round < runs; round++) {
    for (const command of commands) times.get(command.name)!.push(start(command));
  }
  return new Map([...times].map(([name, samples]) => [name, median(samples)]));
}

function start(command: StartCommand): number {
  const began = process.hrtime.bigint();
  const result = spawnSync(process.execPath, command.args, { cwd: command.cwd, encoding: "utf8" });
  const elapsed = Number(process.hrtime.bigint() - began) / 1e6;
  if (result.status !== 0) throw new Error(`${command.name} (node ${command.args.join(" ")}) failed in ${command.cwd}:\n${result.stderr}`);
  return elapsed;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `node -e ''`: the start of a bare Node, against which import costs are read. */
export function bareNode(cwd: string): StartCommand {
  return { name: "bare node", args: ["-e", ""], cwd };
}

/** A fresh Node that imports `specifier` (an ES module import, as `import "x"` in a user's module). */
export function importOf(name: string, specifier: string, cwd: string): StartCommand {
  return { name, args: ["--input-type=module", "-e", `await import(${JSON.stringify(specifier)});`], cwd };
}

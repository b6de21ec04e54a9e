/**
 * A node run's segment of a branch: `name#runId`, or `name` without a run id. ADK writes `name@runId`; in toolsmith
 * `@` marks the branch of an agent run as a tool, whose events stay inside it, so a node run takes `#`.
 */
export function branchSegment(name: string, runId: string | undefined): string {
  return runId !== undefined ? `${name}#${runId}` : name;
}

/**
 * ADK's `BranchPath`: a branch (the dotted string events carry in `branch`) as its segments, one per agent or
 * node run, outermost first. `toString()` gives the string back; {@link append} adds a node run's segment as
 * `createSubBranch` does, so with a run id it is `name#runId` where ADK's is `name@runId` (toolsmith's `@` marks
 * an agent run as a tool; see docs/adk-compat.md, Graph workflows).
 *
 * @example
 * ```ts
 * import { BranchPath } from "toolsmith";
 *
 * const path = new BranchPath(["root", "review"]).append("check", "2");
 * path.toString(); // "root.review.check#2"
 * path.isDescendantOf(new BranchPath(["root"])); // true
 * ```
 */
export class BranchPath {
  readonly #segments: string[];

  /** A path of these segments (copied), outermost first. */
  constructor(segments: string[]) {
    this.#segments = [...segments];
  }

  /** The branch string: the segments joined with `.` (`""` for no segments). */
  toString(): string {
    return this.#segments.join(".");
  }

  /** A copy of the segments, outermost first. */
  getSegments(): string[] {
    return [...this.#segments];
  }

  /** Whether this path lies strictly inside `ancestor`: longer, and beginning with all its segments. */
  isDescendantOf(ancestor: BranchPath): boolean {
    const above = ancestor.getSegments();
    if (this.#segments.length <= above.length) return false;
    return above.every((segment, index) => this.#segments[index] === segment);
  }

  /** A new path with a node run's segment added: `name`, or `name#runId` (see the class). */
  append(name: string, runId?: string): BranchPath {
    return new BranchPath([...this.#segments, branchSegment(name, runId)]);
  }
}

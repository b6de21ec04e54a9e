/**
 * A call id as it may appear inside a branch name: an agent run as a tool gets
 * the branch `…<agent>@<call id>`, and branches are dotted paths, so anything
 * but letters, digits, `_` and `-` is replaced.
 */
export function branchSafeId(callId: string): string {
  return callId.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** The branch of an agent run as a tool by `caller` (at `callerBranch`) for the call `callId`. */
export function agentToolBranch(callerBranch: string | undefined, caller: string, agent: string, callId: string): string {
  return `${callerBranch ? `${callerBranch}.` : ""}${caller}.${agent}@${branchSafeId(callId)}`;
}

/** Whether an event of this branch belongs to an agent run as a tool (at any depth). */
export function isInsideAgentTool(branch: string | undefined): boolean {
  return branch !== undefined && branch.includes("@");
}

/** How many agents run as tools, one inside the other, an agent at this branch is in (0 outside any). */
export function agentToolDepth(branch: string | undefined): number {
  let depth = 0;
  for (let at = branch?.indexOf("@") ?? -1; at !== -1; at = branch!.indexOf("@", at + 1)) depth++;
  return depth;
}

/**
 * The call (its branch-safe id) of the outermost agent or node run as a tool that an event of `branch` belongs to,
 * below `base` (the branch of whoever asks); `undefined` for an event of `base` itself or of its own sub-branches.
 */
export function toolCallBelow(branch: string | undefined, base: string | undefined): string | undefined {
  if (branch === undefined || branch === base) return undefined;
  if (!base) return toolCallIdsIn(branch)[0];
  return branch.startsWith(`${base}.`) ? toolCallIdsIn(branch.slice(base.length + 1))[0] : undefined;
}

/** The branch-safe ids of the calls whose agents or nodes run as tools a branch lies inside, outermost first. */
export function toolCallIdsIn(branch: string | undefined): string[] {
  if (branch === undefined || !branch.includes("@")) return [];
  return branch.split(".").flatMap((segment) => {
    const at = segment.lastIndexOf("@");
    return at < 0 ? [] : [segment.slice(at + 1)];
  });
}

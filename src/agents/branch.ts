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

/**
 * A call id as it may appear inside a branch name: an agent run as a tool gets
 * the branch `…<agent>@<call id>`, and branches are dotted paths, so anything
 * but letters, digits, `_` and `-` is replaced.
 */
export function branchSafeId(callId: string): string {
  return callId.replace(/[^A-Za-z0-9_-]/g, "_");
}

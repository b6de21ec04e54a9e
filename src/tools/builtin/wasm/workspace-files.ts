import { createHash } from "node:crypto";
import { normalizeAgentPath } from "../filesystem/agent-path.js";
import type { Backend, BackendContext } from "../filesystem/backend.js";

/** Where the backend's `/` appears to Python and to bash: `/notes/a.md` is `/workspace/notes/a.md`, and runs start there. */
export const WORKSPACE = "/workspace";

/** A backend path (`/notes/a.md`) as the sandbox sees it (`/workspace/notes/a.md`). */
export function toSandboxPath(agentPath: string): string {
  return agentPath === "/" ? WORKSPACE : `${WORKSPACE}${agentPath}`;
}

/** A sandbox path under {@link WORKSPACE} as the backend's path, or undefined for a path outside it. */
export function toAgentPath(sandboxPath: string): string | undefined {
  if (sandboxPath === WORKSPACE) return "/";
  return sandboxPath.startsWith(`${WORKSPACE}/`) ? sandboxPath.slice(WORKSPACE.length) : undefined;
}

/** A file a run changed that could not be written back, and why. */
export interface FileNotSaved {
  path: string;
  reason: string;
}

/** What a run did to the backend's files. */
export interface SavedChanges {
  /** Backend paths written. */
  written: string[];
  notSaved: FileNotSaved[];
}

/** Every file of the backend with its bytes, keyed by backend path. */
export async function readBackendFiles(backend: Backend, context: BackendContext): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for await (const path of backend.walk({ context, path: "/" })) files.set(path, await backend.readBytes({ context, path }));
  return files;
}

export function digest(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Writes a run's changed files back through the backend, so its path checks
 * and storage apply as for the file tools: each path is first checked as the
 * file tools check a path the model gives (no traversal, percent-escapes,
 * backslashes or control characters). A backend stores text: a file that
 * is not UTF-8 is reported, not saved; a deletion is reported too (backends
 * have no delete, and the file tools cannot delete either).
 */
export async function saveChanges(options: {
  backend: Backend;
  context: BackendContext;
  written: Iterable<[sandboxPath: string, bytes: Uint8Array]>;
  removed: Iterable<string>;
  skipped?: Iterable<FileNotSaved>;
}): Promise<SavedChanges> {
  const saved: SavedChanges = { written: [], notSaved: [] };
  for (const [sandboxPath, bytes] of options.written) {
    const path = toAgentPath(sandboxPath);
    if (!path) continue;
    let content: string;
    try {
      content = strictUtf8.decode(bytes);
    } catch {
      saved.notSaved.push({ path, reason: "it is not UTF-8 text, and the file backend stores text" });
      continue;
    }
    try {
      await options.backend.write({ context: options.context, path: normalizeAgentPath(path), content, overwrite: true });
      saved.written.push(path);
    } catch (error) {
      saved.notSaved.push({ path, reason: (error as Error).message });
    }
  }
  for (const sandboxPath of options.removed) {
    const path = toAgentPath(sandboxPath);
    if (path) saved.notSaved.push({ path, reason: "it was deleted, and deletions are not carried back to the file backend (it keeps the file)" });
  }
  for (const skipped of options.skipped ?? []) saved.notSaved.push({ path: toAgentPath(skipped.path) ?? skipped.path, reason: skipped.reason });
  return saved;
}

/** The keys a run's result adds for its files: written ones, and ones not saved with why. */
export function savedChangesResult(saved: SavedChanges): Record<string, unknown> {
  return {
    ...(saved.written.length > 0 ? { files_written: saved.written } : {}),
    ...(saved.notSaved.length > 0 ? { files_not_saved: saved.notSaved } : {}),
  };
}

import type { FileEntry } from "./backend.js";

/** A file or directory as ls and glob give it to the model, with seed 002's keys. */
export interface EntryResult {
  path: string;
  is_dir: boolean;
  size: number;
  modified_at: string;
}

/** A backend's entry in seed 002's words: `{path, is_dir, size, modified_at}`, directories without a trailing slash. */
export function entryResult(entry: FileEntry): EntryResult {
  return { path: entry.path, is_dir: entry.isDirectory, size: entry.size, modified_at: entry.modifiedAt };
}

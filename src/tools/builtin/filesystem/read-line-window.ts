import type { FileHandle } from "node:fs/promises";
import type { ReadLinesResult } from "./backend.js";

const CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/**
 * Lines `offset` to `offset + limit` of an open file, read in fixed chunks:
 * lines before the window are skipped and lines after it only counted, so
 * memory stays at one chunk plus the window however large the file is.
 */
export async function readLineWindow(handle: FileHandle, offset: number, limit: number): Promise<ReadLinesResult> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const end = offset + limit;
  const lines: string[] = [];
  let pieces: Buffer[] = [];
  let lineIndex = 0;
  let pendingBytes = false;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    let start = 0;
    while (start < bytesRead) {
      const newline = buffer.indexOf(NEWLINE, start);
      const stop = newline === -1 || newline >= bytesRead ? bytesRead : newline;
      const inWindow = lineIndex >= offset && lineIndex < end;
      if (inWindow) pieces.push(Buffer.from(buffer.subarray(start, stop)));
      if (stop === bytesRead) {
        pendingBytes = true;
        break;
      }
      if (inWindow) {
        lines.push(Buffer.concat(pieces).toString("utf8"));
        pieces = [];
      }
      lineIndex++;
      pendingBytes = false;
      start = newline + 1;
    }
  }
  // A last line without a final newline still counts.
  if (pendingBytes) {
    if (lineIndex >= offset && lineIndex < end) lines.push(Buffer.concat(pieces).toString("utf8"));
    lineIndex++;
  }
  return { lines, remaining: Math.max(0, lineIndex - Math.max(end, offset)) };
}

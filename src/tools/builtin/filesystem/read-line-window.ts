import type { FileHandle } from "node:fs/promises";
import type { ReadLinesResult } from "./backend.js";

const CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/** Most bytes of one line a read keeps; the rest of a longer line is skipped and said to be. */
export const MAX_LINE_BYTES = 100_000;

/** Most bytes a read keeps in all; the window ends early past it, and the note says where to go on. */
export const MAX_WINDOW_BYTES = 1_000_000;

/**
 * Lines `offset` to `offset + limit` of an open file, read in fixed chunks:
 * lines before the window are skipped and lines after it only counted. Memory
 * is bounded in bytes as well as lines: a line keeps at most
 * {@link MAX_LINE_BYTES} (a note says how much was left out), and the window
 * ends once it holds {@link MAX_WINDOW_BYTES}, so a file of one 100 MB line or
 * of 2,000 long lines costs about a megabyte.
 */
export async function readLineWindow(handle: FileHandle, offset: number, limit: number): Promise<ReadLinesResult> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let end = offset + limit;
  const lines: string[] = [];
  let pieces: Buffer[] = [];
  let keptInLine = 0;
  let cutFromLine = 0;
  let windowBytes = 0;
  let lineIndex = 0;
  let pendingBytes = false;
  const finishLine = () => {
    const text = Buffer.concat(pieces).toString("utf8");
    lines.push(cutFromLine > 0 ? `${text} ... (${cutFromLine} more bytes of this line not shown)` : text);
    windowBytes += keptInLine;
    // Past the byte budget the window closes after this line; the lines after it count as remaining.
    if (windowBytes >= MAX_WINDOW_BYTES) end = Math.min(end, lineIndex + 1);
    pieces = [];
    keptInLine = 0;
    cutFromLine = 0;
  };
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    let start = 0;
    while (start < bytesRead) {
      const newline = buffer.indexOf(NEWLINE, start);
      const stop = newline === -1 || newline >= bytesRead ? bytesRead : newline;
      if (lineIndex >= offset && lineIndex < end) {
        const room = Math.max(0, MAX_LINE_BYTES - keptInLine);
        const take = Math.min(room, stop - start);
        if (take > 0) pieces.push(Buffer.from(buffer.subarray(start, start + take)));
        keptInLine += take;
        cutFromLine += stop - start - take;
      }
      if (stop === bytesRead) {
        pendingBytes = true;
        break;
      }
      if (lineIndex >= offset && lineIndex < end) finishLine();
      lineIndex++;
      pendingBytes = false;
      start = newline + 1;
    }
  }
  // A last line without a final newline still counts.
  if (pendingBytes) {
    if (lineIndex >= offset && lineIndex < end) finishLine();
    lineIndex++;
  }
  return { lines, remaining: Math.max(0, lineIndex - Math.max(end, offset)) };
}

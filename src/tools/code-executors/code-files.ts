import { lstat, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolsmithError } from "../../errors/toolsmith-error.js";
import { FileContentEncoding, type CodeExecutionFile } from "./base-code-executor.js";

/** Types and encodings by file ending, as ADK's executors give output files; anything else is binary. */
const TYPES: Record<string, { mimeType: string; encoding: FileContentEncoding }> = {
  ".js": { mimeType: "text/javascript", encoding: FileContentEncoding.UTF8 },
  ".py": { mimeType: "text/x-python", encoding: FileContentEncoding.UTF8 },
  ".md": { mimeType: "text/markdown", encoding: FileContentEncoding.UTF8 },
  ".txt": { mimeType: "text/plain", encoding: FileContentEncoding.UTF8 },
  ".html": { mimeType: "text/html", encoding: FileContentEncoding.UTF8 },
  ".css": { mimeType: "text/css", encoding: FileContentEncoding.UTF8 },
  ".json": { mimeType: "application/json", encoding: FileContentEncoding.UTF8 },
  ".csv": { mimeType: "text/csv", encoding: FileContentEncoding.UTF8 },
  ".svg": { mimeType: "image/svg+xml", encoding: FileContentEncoding.UTF8 },
  ".xml": { mimeType: "application/xml", encoding: FileContentEncoding.UTF8 },
  ".yaml": { mimeType: "text/yaml", encoding: FileContentEncoding.UTF8 },
  ".yml": { mimeType: "text/yaml", encoding: FileContentEncoding.UTF8 },
  ".png": { mimeType: "image/png", encoding: FileContentEncoding.BASE64 },
  ".jpg": { mimeType: "image/jpeg", encoding: FileContentEncoding.BASE64 },
  ".jpeg": { mimeType: "image/jpeg", encoding: FileContentEncoding.BASE64 },
  ".pdf": { mimeType: "application/pdf", encoding: FileContentEncoding.BASE64 },
};

/** A file's type and how its content is written, by its ending. */
export function fileTypeOf(name: string): { mimeType: string; encoding: FileContentEncoding } {
  const ending = extname(name).toLowerCase();
  return Object.hasOwn(TYPES, ending) ? TYPES[ending]! : { mimeType: "application/octet-stream", encoding: FileContentEncoding.BASE64 };
}

/** A file of these bytes, typed by its name's ending and written as that type is (text as UTF-8, the rest base64). */
export function fileFromBytes(name: string, bytes: Uint8Array): CodeExecutionFile {
  const { mimeType, encoding } = fileTypeOf(name);
  return { name, content: Buffer.from(bytes).toString(encoding === FileContentEncoding.BASE64 ? "base64" : "utf8"), contentEncoding: encoding, mimeType };
}

/** A file's content as bytes, read as its `contentEncoding` says (UTF-8 text when it says nothing). */
export function fileBytes(file: CodeExecutionFile): Buffer {
  return Buffer.from(file.content, file.contentEncoding === FileContentEncoding.BASE64 ? "base64" : "utf8");
}

/**
 * Where a file named `name` goes inside `folder`, or a `PATH_REFUSED` error when the name would leave it: absolute paths,
 * `..` that climbs out, an empty name or one with a NUL byte.
 */
export function placeInside(folder: string, name: string): string {
  const target = resolve(folder, name);
  if (name.length === 0 || name.includes("\0") || isAbsolute(name) || !target.startsWith(folder + sep)) {
    throw new ToolsmithError("PATH_REFUSED", `The file name ${JSON.stringify(name)} leaves the folder the code runs in. Name files by relative paths inside it, such as "data/input.csv".`);
  }
  return target;
}

/** Writes the files into `folder` (an absolute path), each where its name says, refusing a name that leaves it. */
export async function writeFilesInto(folder: string, files: readonly CodeExecutionFile[]): Promise<void> {
  for (const file of files) {
    const target = placeInside(folder, file.name);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, fileBytes(file));
  }
}

/** Limits on the files read back after a run. */
export interface OutputFileLimits {
  /** Files beyond this many are not read. */
  maxFiles: number;
  /** Files that would take the total past this many bytes are not read. */
  maxTotalBytes: number;
}

/**
 * The regular files the code left in `folder`, except those named in `skip` (the script, the input files), each
 * named by its path inside the folder. Links are not followed (a link to `/etc/passwd` is not read) and folders
 * reached through links are not entered. What the limits leave out is counted in `left`.
 */
export async function readOutputFiles(folder: string, skip: ReadonlySet<string>, limits: OutputFileLimits): Promise<{ files: CodeExecutionFile[]; left: string[] }> {
  const files: CodeExecutionFile[] = [];
  const left: string[] = [];
  let total = 0;
  const walk = async (at: string): Promise<void> => {
    const entries = await readdir(at, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(at, entry.name);
      const name = relative(folder, path).split(sep).join("/");
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      if (!entry.isFile() || skip.has(name)) continue;
      const size = (await lstat(path)).size;
      if (files.length >= limits.maxFiles || total + size > limits.maxTotalBytes) {
        left.push(name);
        continue;
      }
      total += size;
      files.push(fileFromBytes(name, await readFile(path)));
    }
  };
  await walk(folder);
  return { files, left };
}

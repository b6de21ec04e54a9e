import { spawn } from "node:child_process";

/**
 * Runs ripgrep and returns its standard output. Exit status 1 means "no
 * match" and is not an error; 2 with output means some files could not be
 * read, which the search tolerates as the JavaScript search does.
 */
export function runRipgrep(options: { binary: string; args: readonly string[]; cwd: string; abortSignal?: AbortSignal }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.binary, ["--no-config", ...options.args], { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"], signal: options.abortSignal });
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const output = Buffer.concat(chunks);
      if (code === 0 || code === 1 || (code === 2 && output.length > 0)) resolve(output);
      else reject(new Error(`ripgrep exited with ${code}: ${stderr.trim()}`));
    });
  });
}

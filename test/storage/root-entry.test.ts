import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("the root entry", () => {
  it("loads no database driver until a service URI asks for one", () => {
    const script = `
      const { createRequire } = await import("node:module");
      const root = await import("./src/index.ts");
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((path) => /node_modules\\/(better-sqlite3|pg|pg-pool|pg-protocol)\\//.test(path));
      const before = loaded();
      await import("./src/sqlite/index.ts");
      const afterSubpath = loaded();
      const service = await root.createSessionService("sqlite://:memory:");
      await service.close();
      console.log(JSON.stringify({ before, afterSubpath, after: loaded() }));
    `;
    const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: new URL("../../", import.meta.url).pathname });
    const { before, afterSubpath, after } = JSON.parse(output.toString()) as { before: string[]; afterSubpath: string[]; after: string[] };
    expect(before).toEqual([]);
    // toolsmith/sqlite picks its driver when a file is opened, not when it is imported.
    expect(afterSubpath).toEqual([]);
    expect(after.some((path) => path.includes("better-sqlite3"))).toBe(true);
    expect(after.some((path) => /node_modules\/pg\//.test(path))).toBe(false);
  });
});

import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

// Tests import toolsmith by name, as users and the examples do; each name resolves to its source
// file (the "toolsmith-source" condition of package.json "exports"), so the suite tests the code
// as it stands rather than the last build.
const manifest = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { exports: Record<string, { "toolsmith-source": string }> };
const alias = Object.entries(manifest.exports).map(([subpath, entry]) => ({
  find: new RegExp(`^${subpath.replace(/^\./, "toolsmith").replace(/[/.]/g, "\\$&")}$`),
  replacement: new URL(entry["toolsmith-source"], import.meta.url).pathname,
}));

export default defineConfig({
  resolve: { alias },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/support/postgres-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentLoader } from "../../src/server/agent-loader.js";

const moduleNamed = (name: string) => `export const rootAgent = { name: ${JSON.stringify(name)}, description: "", subAgents: [], runAsync: async function* () {} };\n`;

describe("AgentLoader", () => {
  it("lists <name>.js files and <name>/agent.js folders, skipping _ and . names", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolsmith-agents-"));
    writeFileSync(join(dir, "alpha.js"), moduleNamed("alpha"));
    mkdirSync(join(dir, "beta"));
    writeFileSync(join(dir, "beta", "agent.js"), moduleNamed("beta"));
    mkdirSync(join(dir, "_shared"));
    writeFileSync(join(dir, "_shared", "agent.js"), moduleNamed("shared"));
    mkdirSync(join(dir, "empty"));
    expect(new AgentLoader({ agentsDir: dir }).listApps()).toEqual(["alpha", "beta"]);
  });

  it("never takes declarations, tests or tool configuration beside the agents for apps", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolsmith-agents-"));
    for (const name of ["alpha.ts", "alpha.test.ts", "alpha.spec.js", "types.d.ts", "vite.config.ts", "eslint.config.js", "vitest.config.mts"]) writeFileSync(join(dir, name), moduleNamed(name));
    expect(new AgentLoader({ agentsDir: dir }).listApps()).toEqual(["alpha"]);
  });

  it("serves only the apps named in apps, and finds no other", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolsmith-agents-"));
    writeFileSync(join(dir, "alpha.js"), moduleNamed("alpha"));
    writeFileSync(join(dir, "beta.js"), moduleNamed("beta"));
    const loader = new AgentLoader({ agentsDir: dir, apps: ["beta"] });
    expect(loader.listApps()).toEqual(["beta"]);
    expect(loader.hasApp("alpha")).toBe(false);
    expect((await loader.load("beta")).name).toBe("beta");
    await expect(loader.load("alpha")).rejects.toThrow('No app "alpha". Apps in the agents directory: beta.');
  });

  it("refuses a directory that does not exist, naming it", () => {
    expect(() => new AgentLoader({ agentsDir: "/no/such/dir" })).toThrow(/The agents directory "\/no\/such\/dir" does not exist/);
  });

  it("loads a changed module again with reload", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolsmith-agents-"));
    const file = join(dir, "live.js");
    writeFileSync(file, moduleNamed("first"));
    const loader = new AgentLoader({ agentsDir: dir, reload: true });
    try {
      expect((await loader.load("live")).name).toBe("first");
      writeFileSync(file, moduleNamed("second"));
      let name = "first";
      for (let attempt = 0; attempt < 100 && name === "first"; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        name = (await loader.load("live")).name;
      }
      expect(name).toBe("second");
    } finally {
      loader.close();
    }
  });

  it("keeps the loaded module without reload", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolsmith-agents-"));
    const file = join(dir, "fixed.js");
    writeFileSync(file, moduleNamed("first"));
    const loader = new AgentLoader({ agentsDir: dir });
    expect((await loader.load("fixed")).name).toBe("first");
    writeFileSync(file, moduleNamed("second"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await loader.load("fixed")).name).toBe("first");
  });
});

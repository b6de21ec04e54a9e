import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/index.js";
import { importUserModule, typeScriptLoader } from "../../src/platform/import-user-module.js";
import { loadOptionalPeer, requireOptionalPeer } from "../../src/platform/load-optional-peer.js";
import { PACKAGE_ROOT, TOOLSMITH_VERSION } from "../../src/platform/package-root.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir();

describe("PACKAGE_ROOT and TOOLSMITH_VERSION", () => {
  it("find toolsmith's own package.json from the source folder", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { name: string; version: string };
    expect(manifest.name).toBe("toolsmith");
    expect(TOOLSMITH_VERSION).toBe(manifest.version);
    expect(existsSync(join(PACKAGE_ROOT, "src", "platform", "package-root.ts"))).toBe(true);
    expect(new URL("../../", import.meta.url).pathname.replace(/\/$/, "")).toBe(PACKAGE_ROOT);
  });
});

describe("importUserModule", () => {
  it("imports a JavaScript module by file path, with its exports", async () => {
    const file = join(dir, "plain.mjs");
    writeFileSync(file, "export const answer = 42; export default 'main';");
    const module = await importUserModule(file);
    expect(module.answer).toBe(42);
    expect(module.default).toBe("main");
  });

  it("imports a path with spaces and characters a URL escapes", () => {
    const file = join(dir, "a folder #1 %20.mjs");
    writeFileSync(file, "export const ok = 'loaded';");
    // In a plain Node process: vitest's module runner does not decode such file URLs itself.
    const script = `const { importUserModule } = await import(${JSON.stringify(new URL("../../src/platform/import-user-module.ts", import.meta.url).href)}); console.log((await importUserModule(${JSON.stringify(file)})).ok);`;
    const run = spawnSync(process.execPath, [...SOURCE_NODE_FLAGS, "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("loaded");
  });

  it("loads a changed file again only when asked with a new cacheBust", async () => {
    const file = join(dir, "changing.mjs");
    writeFileSync(file, "export const version = 1;");
    expect((await importUserModule(file)).version).toBe(1);
    writeFileSync(file, "export const version = 2;");
    expect((await importUserModule(file)).version).toBe(1);
    expect((await importUserModule(file, { cacheBust: "reload=1" })).version).toBe(2);
    expect((await importUserModule(file, { cacheBust: "reload=1" })).version).toBe(2);
  });

  it("imports a TypeScript module, type annotations and all", async () => {
    expect(["node", "tsx"]).toContain(await typeScriptLoader());
    const file = join(dir, "typed.ts");
    writeFileSync(file, "interface Point { x: number }\nexport const origin: Point = { x: 0 };\nexport function double(value: number): number { return value * 2; }\n");
    const module = await importUserModule(file);
    expect(module.origin).toEqual({ x: 0 });
    expect((module.double as (value: number) => number)(21)).toBe(42);
  });

  it("passes a module's own error through", async () => {
    const file = join(dir, "throws.mjs");
    writeFileSync(file, "throw new Error('module failed at load');");
    await expect(importUserModule(file)).rejects.toThrow("module failed at load");
  });
});

describe("loadOptionalPeer", () => {
  const notInstalled = (name: string) => Object.assign(new Error(`Cannot find package '${name}' imported from /app/x.js`), { code: "ERR_MODULE_NOT_FOUND" });

  it("says which package to install and what for, as MISSING_PACKAGE unless given a code", async () => {
    const error = await loadOptionalPeer({ load: () => Promise.reject(notInstalled("openai")), packageName: "openai", neededFor: 'The model "openai/gpt-4.1"' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ code: "MISSING_PACKAGE", message: 'The model "openai/gpt-4.1" needs the package openai, which is not installed. Install it with: npm install openai' });
    const coded = await loadOptionalPeer({ load: () => Promise.reject(notInstalled("@anthropic-ai/sdk")), packageName: "@anthropic-ai/sdk", neededFor: "Claude", code: "MISSING_MODEL_PACKAGE" }).catch((caught: unknown) => caught);
    expect(coded).toMatchObject({ code: "MISSING_MODEL_PACKAGE" });
  });

  it("recognises a missing subpath of the package, and CommonJS's MODULE_NOT_FOUND", async () => {
    const subpath = Object.assign(new Error("Cannot find module 'tsx/esm/api'"), { code: "MODULE_NOT_FOUND" });
    await expect(loadOptionalPeer({ load: () => Promise.reject(subpath), packageName: "tsx", neededFor: "TypeScript agents" })).rejects.toMatchObject({ code: "MISSING_PACKAGE" });
  });

  it("passes through a missing module that is not the package, and any other failure", async () => {
    const other = notInstalled("left-pad");
    await expect(loadOptionalPeer({ load: () => Promise.reject(other), packageName: "openai", neededFor: "x" })).rejects.toBe(other);
    const broken = new SyntaxError("Unexpected token");
    await expect(loadOptionalPeer({ load: () => Promise.reject(broken), packageName: "openai", neededFor: "x" })).rejects.toBe(broken);
  });

  it("returns what the load gives when the package is there", async () => {
    const loaded = await loadOptionalPeer({ load: () => import("zod"), packageName: "zod", neededFor: "schemas" });
    expect(typeof loaded.z.object).toBe("function");
  });
});

describe("requireOptionalPeer", () => {
  it("requires an installed package at once, for code that runs while an agent is made", () => {
    const yaml = requireOptionalPeer<{ load(text: string): unknown }>({ packageName: "js-yaml", neededFor: "Reading a skill's SKILL.md" });
    expect(yaml.load("name: a")).toEqual({ name: "a" });
  });

  it("says which package to install when it is missing, as loadOptionalPeer does", () => {
    expect(() => requireOptionalPeer({ packageName: "toolsmith-no-such-package", neededFor: "Loading a skill from a zip archive" })).toThrow(
      expect.objectContaining({ code: "MISSING_PACKAGE", message: "Loading a skill from a zip archive needs the package toolsmith-no-such-package, which is not installed. Install it with: npm install toolsmith-no-such-package" }),
    );
  });
});

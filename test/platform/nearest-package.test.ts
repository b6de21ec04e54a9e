import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nearestPackage, PACKAGE_ROOT } from "../../src/platform/package-root.js";

describe("nearestPackage", () => {
  it("finds the nearest package.json at or above a folder, or the nearest one it accepts, with its manifest read", () => {
    const root = mkdtempSync(join(tmpdir(), "toolsmith-nearest-"));
    const inner = join(root, "outer", "inner", "deep");
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(root, "outer", "package.json"), JSON.stringify({ name: "outer", type: "module" }));
    writeFileSync(join(root, "outer", "inner", "package.json"), JSON.stringify({ name: "inner" }));
    expect(nearestPackage(inner)).toEqual({ dir: join(root, "outer", "inner"), manifest: { name: "inner" } });
    expect(nearestPackage(inner, (manifest) => manifest.type === "module")).toEqual({ dir: join(root, "outer"), manifest: { name: "outer", type: "module" } });
    expect(nearestPackage(inner, (manifest) => manifest.name === "nowhere")).toBeUndefined();
  });

  it("reads a package.json that is not JSON as {} rather than throwing", () => {
    const root = mkdtempSync(join(tmpdir(), "toolsmith-nearest-"));
    writeFileSync(join(root, "package.json"), "{ not json");
    expect(nearestPackage(root)).toEqual({ dir: root, manifest: {} });
  });

  it("finds toolsmith's own package from its sources", () => {
    expect(nearestPackage(join(PACKAGE_ROOT, "src", "platform"), (manifest) => manifest.name === "toolsmith")?.dir).toBe(PACKAGE_ROOT);
  });
});

/**
 * LocalEvalStore: eval sets and results in the files and folders ADK's dev
 * server uses, written whole, never replaced in silence, and never outside
 * the app's folder whatever id a client sends.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LocalEvalStore } from "../../src/eval/eval-store.js";
import type { EvalCase } from "../../src/eval/index.js";
import { tempDir } from "../support/temp-dir.js";

function evalCase(evalId: string, text = "hello"): EvalCase {
  return {
    evalId,
    creationTimestamp: 1,
    conversation: [{ invocationId: "i", userContent: { role: "user", parts: [{ text }] }, finalResponse: { role: "model", parts: [{ text: "hi" }] }, intermediateData: { toolUses: [{ name: "t", args: { some_key: 1 } }], intermediateResponses: [] }, creationTimestamp: 1 }],
  };
}

describe("LocalEvalStore", () => {
  it("keeps a set as <agents>/<app>/<id>.evalset.json in ADK's snake_case, and lists, reads, replaces and deletes its cases", async () => {
    const dir = tempDir();
    const store = new LocalEvalStore(dir);
    expect(store.listEvalSets("home")).toEqual([]);
    store.createEvalSet("home", "smoke");
    store.createEvalSet("home", "a_first");
    expect(store.listEvalSets("home")).toEqual(["a_first", "smoke"]);
    await store.addEvalCase("home", "smoke", evalCase("one"));
    const file = JSON.parse(readFileSync(join(dir, "home", "smoke.evalset.json"), "utf8"));
    expect(file.eval_cases[0].conversation[0].intermediate_data.tool_uses).toEqual([{ name: "t", args: { some_key: 1 } }]);
    expect(await store.getEvalCase("home", "smoke", "one")).toEqual(evalCase("one"));
    await store.replaceEvalCase("home", "smoke", "one", evalCase("one", "changed"));
    expect((await store.getEvalCase("home", "smoke", "one")).conversation[0]!.userContent.parts![0]!.text).toBe("changed");
    await store.replaceEvalCase("home", "smoke", "one", undefined);
    expect((await store.getEvalSet("home", "smoke")).evalCases).toEqual([]);
    // Written whole through a temporary file: none is left behind.
    expect(readdirSync(join(dir, "home")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses to replace a set or a case that exists, and says which are missing", async () => {
    const store = new LocalEvalStore(tempDir());
    store.createEvalSet("home", "smoke");
    expect(() => store.createEvalSet("home", "smoke")).toThrow("Eval set smoke already exists for app home.");
    await store.addEvalCase("home", "smoke", evalCase("one"));
    await expect(store.addEvalCase("home", "smoke", evalCase("one", "other"))).rejects.toThrow("Eval set smoke already has a case one: choose another eval id.");
    expect((await store.getEvalCase("home", "smoke", "one")).conversation[0]!.userContent.parts![0]!.text).toBe("hello");
    await expect(store.getEvalSet("home", "ghost")).rejects.toThrow("Eval set ghost not found for app home. Sets: smoke.");
    await expect(store.getEvalCase("home", "smoke", "ghost")).rejects.toMatchObject({ code: "EVAL_CASE_NOT_FOUND" });
    await expect(store.replaceEvalCase("home", "smoke", "ghost", undefined)).rejects.toMatchObject({ code: "EVAL_CASE_NOT_FOUND" });
  });

  it("keeps every case of many added at once (50 concurrent adds)", async () => {
    const store = new LocalEvalStore(tempDir());
    store.createEvalSet("home", "busy");
    const ids = Array.from({ length: 50 }, (_, index) => `case_${String(index).padStart(2, "0")}`);
    const outcomes = await Promise.allSettled([...ids.map((id) => store.addEvalCase("home", "busy", evalCase(id))), store.addEvalCase("home", "busy", evalCase("case_00"))]);
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toHaveLength(1);
    expect((await store.getEvalSet("home", "busy")).evalCases.map((item) => item.evalId).sort()).toEqual(ids);
  });

  it("stores results in .adk/eval_history in snake_case and reads them back in camelCase", async () => {
    const dir = tempDir();
    const store = new LocalEvalStore(dir);
    const id = store.saveResult("home", { evalSetResultId: "home_smoke_1_5", evalSetId: "smoke", evalCaseResults: [{ evalId: "one", finalEvalStatus: 1, toolArgs: { args: { keep_me: 1 } } }] });
    expect(store.listResults("home")).toEqual([id]);
    const file = JSON.parse(readFileSync(join(dir, "home", ".adk", "eval_history", "home_smoke_1_5.evalset_result.json"), "utf8"));
    expect(file).toEqual({ eval_set_result_id: "home_smoke_1_5", eval_set_id: "smoke", eval_case_results: [{ eval_id: "one", final_eval_status: 1, tool_args: { args: { keep_me: 1 } } }] });
    expect(await store.getResult("home", id)).toEqual({ evalSetResultId: "home_smoke_1_5", evalSetId: "smoke", evalCaseResults: [{ evalId: "one", finalEvalStatus: 1, toolArgs: { args: { keep_me: 1 } } }] });
    await expect(store.getResult("home", "../../etc/passwd")).rejects.toThrow("Eval result ../../etc/passwd not found for app home.");
  });

  it("never writes outside the app's folder, whatever the id (2,000 generated ids)", async () => {
    const dir = tempDir();
    const store = new LocalEvalStore(dir);
    const figures = { ids: 0, created: 0, refused: 0 };
    const id = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("..", "../x", "a/b", "a\\b", "x\u0000y", "CON", ".hidden", "a.evalset"), fc.stringMatching(/^[a-zA-Z0-9_]{1,12}$/));
    fc.assert(
      fc.property(id, (candidate) => {
        figures.ids++;
        try {
          store.createEvalSet("home", candidate);
          figures.created++;
          expect(candidate).toMatch(/^[a-zA-Z0-9_]+$/);
        } catch (error) {
          figures.refused++;
          expect((error as { code: string }).code).toMatch(/^EVAL_SET_(INVALID|EXISTS)$/);
        }
      }),
      { numRuns: 2000 },
    );
    console.log(`eval set ids: ${figures.ids} tried, ${figures.created} created, ${figures.refused} refused`);
    expect(readdirSync(dir)).toEqual(["home"]);
    expect(readdirSync(join(dir, "home")).every((name) => /^[a-zA-Z0-9_]+\.evalset\.json$/.test(name))).toBe(true);
    expect(existsSync(join(dir, "..", "x.evalset.json"))).toBe(false);
  });
});

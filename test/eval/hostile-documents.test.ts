/**
 * Documents built to break the reader: nesting deep enough to overflow a
 * recursive walk, in the set's structure or inside tool arguments, and a
 * damaged stored result. Each gets an EvalError naming the file and the
 * place, never a stack overflow or a 500.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalEvalStore } from "../../src/eval/eval-store.js";
import { parseEvalSet, readEvalSetFile } from "../../src/eval/index.js";
import { tempDir } from "../support/temp-dir.js";

function nested(depth: number): string {
  return '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

function withArgs(args: string): string {
  return `{"eval_set_id":"x","eval_cases":[{"eval_id":"c","conversation":[{"user_content":{"parts":[{"text":"hi"}]},"intermediate_data":{"tool_uses":[{"name":"t","args":${args}}]}}]}]}`;
}

describe("hostile eval set documents", () => {
  it("refuses structure nested 100,000 levels deep with an EvalError instead of overflowing the stack", async () => {
    const text = `{"eval_set_id":"x","eval_cases":[],"extra":${nested(100_000)}}`;
    await expect(parseEvalSet(JSON.parse(text), "deep.evalset.json")).rejects.toMatchObject({
      code: "EVAL_SET_INVALID",
      message: "deep.evalset.json is refused: it nests more than 64 levels deep outside tool arguments and state; an eval set needs about ten.",
    });
  });

  it("holds tool arguments to the limits of tool arguments: 100,000 levels deep, a __proto__ key, or too many values are refused", async () => {
    await expect(parseEvalSet(JSON.parse(withArgs(nested(100_000))), "deep-args.evalset.json")).rejects.toThrow(/^deep-args\.evalset\.json is refused: its args field a\.a\.a.* is nested deeper than 64 levels; send flatter data\.$/);
    await expect(parseEvalSet(JSON.parse(withArgs('{"__proto__": {"polluted": true}}')), "proto.evalset.json")).rejects.toThrow("proto.evalset.json is refused: its args field __proto__ is not allowed as a field name.");
    await expect(parseEvalSet(JSON.parse(withArgs(`{"list": [${Array.from({ length: 100_001 }, () => "0").join(",")}]}`)), "big.evalset.json")).rejects.toThrow("big.evalset.json is refused: its args holds more than 100000 values; send less data at once.");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reads arguments nested as deep as a tool may take them (63 levels)", async () => {
    const set = await parseEvalSet(JSON.parse(withArgs(nested(63))));
    let value: unknown = set.evalCases[0]!.conversation[0]!.intermediateData!.toolUses[0]!.args;
    let depth = 0;
    while (typeof value === "object" && value !== null) {
      value = (value as { a: unknown }).a;
      depth++;
    }
    expect(depth).toBe(63);
  });

  it("refuses state nested too deep in session_input the same way, from a file", async () => {
    const dir = tempDir();
    const path = join(dir, "state.evalset.json");
    writeFileSync(path, `{"eval_set_id":"x","eval_cases":[{"eval_id":"c","conversation":[],"session_input":{"app_name":"a","user_id":"u","state":${nested(1000)}}}]}`);
    await expect(readEvalSetFile(path)).rejects.toThrow(`${path} is refused: its state field a.a.a`);
  });

  it("answers a damaged stored result with an error naming the file, not a crash", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "home", ".adk", "eval_history"), { recursive: true });
    writeFileSync(join(dir, "home", ".adk", "eval_history", "home_smoke_1_2.evalset_result.json"), "{ half a file");
    const store = new LocalEvalStore(dir);
    expect(store.listResults("home")).toEqual(["home_smoke_1_2"]);
    await expect(store.getResult("home", "home_smoke_1_2")).rejects.toMatchObject({ code: "EVAL_SET_INVALID", message: expect.stringContaining("The stored eval result home_smoke_1_2 of app home cannot be read") });
  });
});

import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import * as toolsmith from "../../src/index.js";
import { ToolsmithError } from "../../src/index.js";
import { drain, runOnBoth } from "./side-by-side.js";

/**
 * `zodObjectToSchema`, side by side with `@google/adk` 2.0: the same `@google/genai` Schema for the same zod
 * object, zod 4 and zod 3, over a corpus of the field kinds tools declare.
 */
const ZOD_4_CORPUS: Record<string, z.ZodObject> = {
  strings: z.object({
    plain: z.string(),
    bounded: z.string().min(2).max(5).describe("Two to five characters."),
    email: z.email(),
    uuid: z.uuid(),
    url: z.url(),
    pattern: z.string().regex(/^x+$/),
    dateTime: z.iso.datetime(),
  }),
  numbers: z.object({ number: z.number(), integer: z.number().int(), ranged: z.number().min(1).max(9), positive: z.number().gt(0), flag: z.boolean() }),
  enums: z.object({ choice: z.enum(["a", "b"]), literal: z.literal("x"), numericLiteral: z.literal(3), native: z.nativeEnum({ A: "a", B: "b" } as const) }),
  optionalNullableDefault: z.object({
    optional: z.string().optional(),
    nullable: z.string().nullable(),
    nullish: z.number().nullish(),
    defaulted: z.number().default(3),
    described: z.string().default("x").describe("Has a default."),
  }),
  arrays: z.object({ strings: z.array(z.string()).min(1).max(3), objects: z.array(z.object({ x: z.number() })), tuple: z.tuple([z.string(), z.number()]) }),
  nested: z.object({ inner: z.object({ deep: z.object({ value: z.string().describe("Deep.") }) }).describe("The inner object."), map: z.record(z.string(), z.number()) }),
  unions: z.object({
    union: z.union([z.string(), z.number()]),
    tagged: z.discriminatedUnion("kind", [z.object({ kind: z.literal("a"), a: z.string() }), z.object({ kind: z.literal("b"), b: z.number() })]),
    null: z.null(),
  }),
  anything: z.object({ any: z.any(), unknown: z.unknown() }).describe("Top-level description."),
  strict: z.object({ a: z.string() }).strict(),
  readonly: z.object({ frozen: z.object({ a: z.string() }).readonly() }),
  empty: z.object({}),
};

const ZOD_3_CORPUS: Record<string, z3.AnyZodObject> = {
  fields: z3.object({
    email: z3.string().min(1).email(),
    integer: z3.number().int(),
    int64: z3.number().int().describe("Whole."),
    null: z3.null(),
    optional: z3.string().optional(),
    list: z3.array(z3.number()).max(4),
    choice: z3.enum(["x", "y"]),
    nested: z3.object({ flag: z3.boolean().default(false) }).describe("Nested."),
    nullable: z3.string().nullable(),
  }),
  strict: z3.object({ a: z3.string().uuid() }).strict(),
};

describe("zodObjectToSchema, side by side with @google/adk 2.0", () => {
  it.each(Object.entries(ZOD_4_CORPUS))("gives ADK's Schema for the zod 4 object %s", (_name, schema) => {
    const ours = toolsmith.zodObjectToSchema(schema);
    expect(ours).toStrictEqual(adk.zodObjectToSchema(schema));
    expect(ours.type).toBe("OBJECT");
  });

  it.each(Object.entries(ZOD_3_CORPUS))("gives ADK's Schema for the zod 3 object %s", (_name, schema) => {
    const ours = toolsmith.zodObjectToSchema(schema);
    expect(ours).toStrictEqual(adk.zodObjectToSchema(schema));
    expect(ours.type).toBe("OBJECT");
  });

  it("writes lengths and item counts as strings and types in capitals, as ADK's (a sample of the above, spelt out)", () => {
    expect(toolsmith.zodObjectToSchema(z.object({ tags: z.array(z.string().min(1)).max(3) }))).toEqual({
      type: "OBJECT",
      properties: { tags: { type: "ARRAY", maxItems: "3", items: { type: "STRING", minLength: "1" } } },
      required: ["tags"],
    });
  });

  it("refuses what is not a zod object, and fields JSON Schema cannot describe, where ADK throws, with ADK's words", () => {
    const refused = [z.string(), z3.string(), z.array(z.string()), z.object({ when: z.date() }), z.object({ big: z.bigint() }), { type: "object" }];
    for (const schema of refused) {
      let adkMessage = "";
      try {
        adk.zodObjectToSchema(schema as never);
      } catch (error) {
        adkMessage = (error as Error).message;
      }
      expect(adkMessage).not.toBe("");
      expect(() => toolsmith.zodObjectToSchema(schema as never)).toThrow(adkMessage);
      expect(() => toolsmith.zodObjectToSchema(schema as never)).toThrow(ToolsmithError);
    }
  });

  it("declares an ADK-style tool's parameters: the model's call reaches the tool on both, a tagged union and nulls included", async () => {
    const parameters = z.object({
      tagged: z.discriminatedUnion("kind", [z.object({ kind: z.literal("a"), a: z.string() }), z.object({ kind: z.literal("b"), b: z.number() })]),
      name: z.string().min(2),
      nothing: z.null(),
      maybe: z.number().nullable(),
      tags: z.array(z.string()).max(2).optional(),
    });
    const args = { tagged: { kind: "b", b: 2 }, name: "ab", nothing: null, maybe: null, tags: ["x"] };
    const script = [{ content: { role: "model", parts: [{ functionCall: { name: "pick", args } }] } }, { content: { role: "model", parts: [{ text: "Done." }] } }];
    const { adk: onAdk, toolsmith: onToolsmith } = await runOnBoth(script, async (f, model) => {
      class Pick extends f.BaseTool {
        constructor() {
          super({ name: "pick", description: "Picks." });
        }
        _getDeclaration() {
          return { name: "pick", description: "Picks.", parameters: f.zodObjectToSchema(parameters) };
        }
        async runAsync({ args: received }: { args: unknown }) {
          return { received };
        }
      }
      const runner = new f.InMemoryRunner({ agent: new f.LlmAgent({ name: "picker", model, tools: [new Pick()] }), appName: "app" });
      const session = await runner.sessionService.createSession({ appName: "app", userId: "u" });
      return { runner, events: await drain(runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "go" }] } })) };
    });
    expect(onToolsmith.events).toEqual(onAdk.events);
    expect(onToolsmith.events[1]!.content).toMatchObject({ parts: [{ functionResponse: { name: "pick", response: { received: args } } }] });
  });
});

/**
 * A schema a node checks its input or output with: a zod schema (anything with `safeParse`). ADK accepts a genai
 * `Schema` too and then checks nothing; toolsmith refuses one rather than pass values through unchecked.
 */
export interface NodeSchema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { message: string } };
}

/**
 * What a span's `error.type` says of a failure: a toolsmith error's code (or
 * any error's own `code`), otherwise the error's class name, as the
 * semantic conventions ask (a low-cardinality name, never the message).
 */
export function errorTypeOf(error: unknown): string {
  if (error !== null && typeof error === "object") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === "string" && name) return name;
  }
  return "_OTHER";
}

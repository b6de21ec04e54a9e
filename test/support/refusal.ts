import { expect } from "vitest";
import { ConfigurationError, isToolsmithError } from "../../src/index.js";

/** The code and message of the ToolsmithError `make` throws; fails the test when it throws nothing or another error. */
export function refusal(make: () => unknown): { code: string; message: string } {
  try {
    make();
  } catch (error) {
    if (isToolsmithError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

/**
 * Calls each `[method, request, message]` on `service` and expects it to reject with a `ConfigurationError` carrying
 * exactly `message`: how the storage conformance suites show the errors a user sees for requests a store cannot read.
 */
export async function expectRequestRefusals(service: object, cases: readonly (readonly [method: string, request: unknown, message: string])[]): Promise<void> {
  const methods = service as Record<string, (request?: unknown) => Promise<unknown>>;
  for (const [method, request, message] of cases) {
    const error = await methods[method]!.call(service, request).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error, `${method}(${JSON.stringify(request)})`).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).message).toBe(message);
  }
}

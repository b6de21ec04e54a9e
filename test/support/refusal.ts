import { isToolsmithError } from "../../src/index.js";

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

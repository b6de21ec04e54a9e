/**
 * Programs that cannot run on toolsmith yet, each with the ADK feature toolsmith
 * lacks. Their run is an `it.todo` naming the feature, and their toolsmith.ts is
 * left out of tsconfig.json's type check (a test keeps the two lists equal).
 * Remove an entry once the feature lands and the program passes.
 */
export const PENDING: Readonly<Record<string, string>> = {
  "01-function-tool-zod": "stringifyContent (ADK's text of an event's content)",
};

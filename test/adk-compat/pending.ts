/**
 * Programs that do not yet run on toolsmith as they ran on ADK, each with what
 * differs (measured by running them). Their run is an
 * `it.todo` naming the features, and their toolsmith.ts is left out of
 * tsconfig.json's type check (a test keeps the two lists equal). Remove an entry
 * once the features land and the program passes.
 */
export const PENDING: Readonly<Record<string, string>> = {
  "16-confirmation-boolean": "ADK 2.0 throws IntentMismatchError on its own confirmation flow; toolsmith completes it (docs/adk-compat.md)",
  "17-confirmation-advanced": "ADK 2.0 throws IntentMismatchError on its own confirmation flow; toolsmith completes it (docs/adk-compat.md)",
};

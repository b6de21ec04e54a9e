/**
 * Programs that do not yet run on toolsmith as they ran on ADK, each with what
 * differs (measured by running them). Their run is an
 * `it.todo` naming the features, and their toolsmith.ts is left out of
 * tsconfig.json's type check (a test keeps the two lists equal). Remove an entry
 * once the features land and the program passes.
 */
export const PENDING: Readonly<Record<string, string>> = {
};

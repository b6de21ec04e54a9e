import type { Hono } from "hono";
import type { ApiEnv, ApiServerParts } from "./api-env.js";
import { modelCredentialStatus } from "./model-credentials.js";
import { modelRequirements } from "./model-requirements.js";
import { TOOLSMITH_VERSION } from "../platform/package-root.js";

/**
 * What the server and an app need: `/toolsmith/info` (version, and which
 * model credentials are set) and `/apps/{app}/requirements` (which
 * environment variables the app's models need, and whether they are set).
 * Names only, never values.
 */
export function registerInfoRoutes(app: Hono<ApiEnv>, { registry }: ApiServerParts): void {
  app.get("/toolsmith/info", (context) => context.json({ name: "toolsmith", version: TOOLSMITH_VERSION, modelCredentials: modelCredentialStatus() }));

  // Per app rather than in /toolsmith/info: answering loads the app's module, which the page does only for the app it opens.
  app.get("/apps/:appName/requirements", async (context) => {
    const appName = context.req.param("appName");
    return context.json(modelRequirements({ app: appName, root: await registry.agent(appName) }));
  });
}

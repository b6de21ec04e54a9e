import type { Context, Hono } from "hono";
import { SessionNotFoundError } from "../errors/toolsmith-error.js";
import { authorizeUser, type ApiEnv, type ApiServerParts } from "./api-env.js";
import { HttpError } from "./http-error.js";

const ARTIFACTS = "/apps/:appName/users/:userId/sessions/:sessionId/artifacts";

/** ADK's artifact endpoints: list names, latest (or `?version=`), versions, one version, delete. */
export function registerArtifactRoutes(app: Hono<ApiEnv>, { registry }: ApiServerParts): void {
  const { artifactService, sessionService } = registry.services;

  const sessionKey = async (context: Context<ApiEnv>) => {
    const { appName, userId, sessionId } = context.req.param() as Record<string, string>;
    authorizeUser(context, userId!);
    registry.assertApp(appName!);
    const session = await sessionService.getSession({ appName: appName!, userId: userId!, sessionId: sessionId!, config: { numRecentEvents: 1 } });
    if (!session) throw new SessionNotFoundError({ appName: appName!, userId: userId!, sessionId: sessionId! });
    return { appName: appName!, userId: userId!, sessionId: sessionId! };
  };
  const load = async (context: Context<ApiEnv>, version: number | undefined) => {
    const filename = context.req.param("artifactName")!;
    const artifact = await artifactService.loadArtifact({ ...(await sessionKey(context)), filename, version });
    if (!artifact) throw new HttpError(404, "ARTIFACT_NOT_FOUND", `Artifact "${filename}"${version === undefined ? "" : ` version ${version}`} not found.`);
    return context.json(artifact);
  };

  app.get(ARTIFACTS, async (context) => context.json(await artifactService.listArtifactKeys(await sessionKey(context))));
  app.get(`${ARTIFACTS}/:artifactName`, (context) => load(context, versionOf(context.req.query("version"))));
  app.get(`${ARTIFACTS}/:artifactName/versions`, async (context) => {
    const filename = context.req.param("artifactName");
    return context.json(await artifactService.listVersions({ ...(await sessionKey(context)), filename }));
  });
  app.get(`${ARTIFACTS}/:artifactName/versions/:version`, (context) => load(context, versionOf(context.req.param("version"))));
  app.delete(`${ARTIFACTS}/:artifactName`, async (context) => {
    await artifactService.deleteArtifact({ ...(await sessionKey(context)), filename: context.req.param("artifactName") });
    return context.body(null, 204);
  });
}

function versionOf(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const version = Number(value);
  if (!Number.isInteger(version) || version < 0) throw new HttpError(400, "INVALID_VERSION", "An artifact version is a whole number from 0.");
  return version;
}

import type { Hono } from "hono";
import { SessionNotFoundError } from "../errors/toolsmith-error.js";
import { evalSetResultJson, runEvalResultJson } from "../eval/adk-results.js";
import { parseCriteria } from "../eval/criteria.js";
import { evaluate } from "../eval/evaluate.js";
import { EvalError } from "../eval/eval-error.js";
import type { EvalCase } from "../eval/eval-set.js";
import { parseEvalCase } from "../eval/eval-set-json.js";
import { LocalEvalStore } from "../eval/eval-store.js";
import { invocationsFromEvents } from "../eval/invocations.js";
import { authorizeUser, type ApiEnv, type ApiServerParts } from "./api-env.js";
import { HttpError } from "./http-error.js";
import { readJsonObject, requiredString } from "./request-body.js";

const SETS = "/apps/:appName/eval_sets";

/** ADK's default metrics of a run without any: the trajectory exact, the answer by ROUGE-1 at 0.8. */
const DEFAULT_METRICS = [
  { metric_name: "tool_trajectory_avg_score", threshold: 1 },
  { metric_name: "response_match_score", threshold: 0.8 },
];

/**
 * ADK's eval endpoints, same paths and JSON as its dev server: eval sets
 * (create, list), sessions saved as eval cases, cases read, replaced and
 * deleted, runs of cases with chosen metrics, and stored results. Sets live in
 * `<agents>/<app>/<id>.evalset.json` and results in
 * `<agents>/<app>/.adk/eval_history/`, as ADK keeps them.
 */
export function registerEvalRoutes(app: Hono<ApiEnv>, { registry }: ApiServerParts): void {
  const store = new LocalEvalStore(registry.loader.agentsDir);

  app.get(SETS, (context) => {
    const { appName } = context.req.param();
    registry.assertApp(appName);
    return context.json(store.listEvalSets(appName));
  });

  app.post(`${SETS}/:evalSetId`, (context) => {
    const { appName, evalSetId } = context.req.param();
    registry.assertApp(appName);
    store.createEvalSet(appName, evalSetId);
    return context.json(null);
  });

  app.post(`${SETS}/:evalSetId/add_session`, async (context) => {
    const { appName, evalSetId } = context.req.param();
    registry.assertApp(appName);
    const body = await readJsonObject(context.req.raw);
    const evalId = requiredString(body, "evalId");
    const userId = requiredString(body, "userId");
    const sessionId = requiredString(body, "sessionId");
    authorizeUser(context, userId);
    const session = await registry.services.sessionService.getSession({ appName, userId, sessionId });
    if (!session) throw new SessionNotFoundError({ appName, userId, sessionId });
    const agent = await registry.agent(appName);
    const conversation = invocationsFromEvents(session.events, agent.name).map(({ toolResponses: _responses, error: _error, ...invocation }) => invocation);
    if (conversation.length === 0) throw new HttpError(400, "INVALID_BODY", `Session ${sessionId} has no user message yet: talk to the agent first, then save the session as an eval case.`);
    const evalCase: EvalCase = { evalId, conversation, sessionInput: { appName, userId, state: {} }, creationTimestamp: Date.now() / 1000 };
    await store.addEvalCase(appName, evalSetId, evalCase);
    return context.json(null);
  });

  app.get(`${SETS}/:evalSetId/evals`, async (context) => {
    const { appName, evalSetId } = context.req.param();
    registry.assertApp(appName);
    const set = await store.getEvalSet(appName, evalSetId);
    return context.json(set.evalCases.map((evalCase) => evalCase.evalId).sort());
  });

  app.get(`${SETS}/:evalSetId/evals/:evalId`, async (context) => {
    const { appName, evalSetId, evalId } = context.req.param();
    registry.assertApp(appName);
    return context.json(await store.getEvalCase(appName, evalSetId, evalId));
  });

  app.put(`${SETS}/:evalSetId/evals/:evalId`, async (context) => {
    const { appName, evalSetId, evalId } = context.req.param();
    registry.assertApp(appName);
    const body = await readJsonObject(context.req.raw);
    const given = body.evalId ?? body.eval_id;
    if (given !== undefined && given !== "" && given !== evalId) throw new HttpError(400, "INVALID_BODY", "Eval id in EvalCase should match the eval id in the API route.");
    const evalCase = await parseEvalCase({ ...body, eval_id: evalId, evalId }, "The eval case");
    await store.replaceEvalCase(appName, evalSetId, evalId, evalCase);
    return context.json(null);
  });

  app.delete(`${SETS}/:evalSetId/evals/:evalId`, async (context) => {
    const { appName, evalSetId, evalId } = context.req.param();
    registry.assertApp(appName);
    await store.replaceEvalCase(appName, evalSetId, evalId, undefined);
    return context.json(null);
  });

  app.post(`${SETS}/:evalSetId/run_eval`, async (context) => {
    const { appName, evalSetId } = context.req.param();
    registry.assertApp(appName);
    const body = await readJsonObject(context.req.raw);
    const evalIds = stringList(body.evalIds ?? body.eval_ids, "eval_ids");
    const criteria = parseCriteria({ criteria: metricsOf(body.evalMetrics ?? body.eval_metrics) }, "eval_metrics");
    const set = await store.getEvalSet(appName, evalSetId);
    const unknown = evalIds.filter((id) => !set.evalCases.some((evalCase) => evalCase.evalId === id));
    if (unknown.length) throw new EvalError("EVAL_CASE_NOT_FOUND", `Eval set ${evalSetId} has no case ${unknown.join(", ")}.`);
    const chosen = { ...set, evalCases: evalIds.length ? set.evalCases.filter((evalCase) => evalIds.includes(evalCase.evalId)) : set.evalCases };
    const { agent, plugins } = await registry.app(appName);
    const report = await evaluate({ agent, plugins, appName, evalSets: [chosen], criteria, abortSignal: context.req.raw.signal });
    store.saveResult(appName, evalSetResultJson(appName, evalSetId, report.cases));
    return context.json(report.cases.map(runEvalResultJson));
  });

  app.get("/apps/:appName/eval_results", (context) => {
    const { appName } = context.req.param();
    registry.assertApp(appName);
    return context.json(store.listResults(appName));
  });

  app.get("/apps/:appName/eval_results/:resultId", async (context) => {
    const { appName, resultId } = context.req.param();
    registry.assertApp(appName);
    return context.json(await store.getResult(appName, resultId));
  });
}

function stringList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) throw new HttpError(400, "INVALID_BODY", `"${name}" must be a list of eval ids (empty runs every case).`);
  return value as string[];
}

/** ADK's `eval_metrics` list (`[{metric_name, threshold, criterion?}]`) as the criteria map of a test_config.json. */
function metricsOf(value: unknown): Record<string, unknown> {
  const list = value === undefined || value === null || (Array.isArray(value) && value.length === 0) ? DEFAULT_METRICS : value;
  if (!Array.isArray(list)) throw new HttpError(400, "INVALID_BODY", '"eval_metrics" must be a list such as [{"metric_name": "tool_trajectory_avg_score", "threshold": 1}].');
  // No prototype: a metric_name of "__proto__" is then a name the criteria check refuses, not the record's prototype.
  const criteria: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const entry of list) {
    const record = (entry ?? {}) as Record<string, unknown>;
    const name = record.metricName ?? record.metric_name;
    if (typeof name !== "string") throw new HttpError(400, "INVALID_BODY", 'Each of "eval_metrics" needs a "metric_name".');
    const criterion = record.criterion;
    criteria[name] = criterion && typeof criterion === "object" ? { threshold: record.threshold, ...(criterion as Record<string, unknown>) } : record.threshold;
  }
  return criteria;
}

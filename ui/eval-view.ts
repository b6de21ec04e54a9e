import { api, type EvalInvocation, type EvalMetricResult, type RunEvalResult } from "./api.js";
import { h, replaceChildren } from "./dom.js";

/** What the Eval tab reads of the page: the app, the user and the open session. */
export interface EvalContext {
  app(): string | undefined;
  userId(): string;
  sessionId(): string | undefined;
  guarded(action: () => Promise<void>): Promise<void>;
}

function text(content: EvalInvocation["userContent"] | undefined): string {
  return (content?.parts ?? []).flatMap((part) => (part.text ? [part.text] : [])).join("\n");
}

function tools(invocation: EvalInvocation): HTMLElement {
  const uses = invocation.intermediateData?.toolUses ?? [];
  return h("ol", { class: "eval-tools" }, uses.length ? uses.map((use) => h("li", {}, `${use.name}(${JSON.stringify(use.args ?? {})})`)) : h("li", { class: "hint" }, "no tool calls"));
}

function score(metric: EvalMetricResult): string {
  return `${metric.metricName} ${metric.score === undefined ? "—" : metric.score.toFixed(2)} / ${metric.threshold}`;
}

function status(code: number): { label: string; className: string } {
  if (code === 1) return { label: "PASS", className: "pass" };
  if (code === 2) return { label: "FAIL", className: "fail" };
  return { label: "NOT EVALUATED", className: "" };
}

/** One case's result: its metrics, then each turn with the expected and actual tool calls and answers side by side. */
function resultView(result: RunEvalResult): HTMLElement {
  const overall = status(result.finalEvalStatus);
  return h(
    "div",
    { class: "eval-result", "data-testid": "eval-result", "data-eval-id": result.evalId },
    h("h4", {}, h("span", { class: `badge ${overall.className}`, "data-testid": "eval-status" }, overall.label), ` ${result.evalId}`),
    h("ul", { class: "eval-metrics" }, result.overallEvalMetricResults.map((metric) => h("li", { class: status(metric.evalStatus).className, "data-testid": "eval-metric" }, score(metric)))),
    result.evalMetricResultPerInvocation.map((turn, index) =>
      h(
        "table",
        { class: "eval-turn", "data-testid": "eval-turn" },
        h("caption", {}, `Turn ${index + 1}: ${text(turn.expectedInvocation.userContent)}`),
        h("tr", {}, h("th", {}, ""), h("th", {}, "Expected"), h("th", {}, "Actual")),
        h("tr", {}, h("th", {}, "Tools"), h("td", { "data-testid": "expected-tools" }, tools(turn.expectedInvocation)), h("td", { "data-testid": "actual-tools" }, tools(turn.actualInvocation))),
        h("tr", {}, h("th", {}, "Answer"), h("td", {}, text(turn.expectedInvocation.finalResponse)), h("td", {}, text(turn.actualInvocation.finalResponse))),
        h("tr", {}, h("th", {}, "Scores"), h("td", { colspan: 2 }, turn.evalMetricResults.map(score).join(" · "))),
      ),
    ),
  );
}

/**
 * The Eval tab: eval sets of the app (create one), the open session saved as
 * an eval case, cases picked and run with the trajectory and response-match
 * thresholds, and each result beside its expected trajectory.
 */
export function evalTab(context: EvalContext): { element: HTMLElement; refresh(): Promise<void> } {
  const setSelect = h("select", { "data-testid": "eval-set-select", onchange: () => void context.guarded(refreshCases) });
  const newSetInput = h("input", { placeholder: "new_eval_set", size: 14, "data-testid": "new-eval-set" });
  const caseIdInput = h("input", { placeholder: "eval id", size: 14, "data-testid": "eval-id" });
  const trajectoryInput = h("input", { type: "number", min: 0, max: 1, step: 0.05, value: 1, size: 4, "data-testid": "threshold-trajectory" });
  const responseInput = h("input", { type: "number", min: 0, max: 1, step: 0.05, value: 0.8, size: 4, "data-testid": "threshold-response" });
  const caseList = h("ul", { class: "eval-cases", "data-testid": "eval-cases" });
  const results = h("div", { class: "eval-results", "data-testid": "eval-results" });

  async function refresh(): Promise<void> {
    const app = context.app();
    if (!app) return;
    const sets = await api.listEvalSets(app);
    const previous = setSelect.value;
    replaceChildren(setSelect, sets.length ? sets.map((id) => h("option", { value: id }, id)) : h("option", { value: "" }, "(no eval sets yet)"));
    if (sets.includes(previous)) setSelect.value = previous;
    await refreshCases();
  }

  async function refreshCases(): Promise<void> {
    const app = context.app();
    const set = setSelect.value;
    if (!app || !set) return replaceChildren(caseList, h("li", { class: "hint" }, "Create an eval set, then save sessions into it."));
    const ids = await api.listEvals(app, set);
    replaceChildren(caseList, ids.length ? ids.map((id) => h("li", {}, h("label", {}, h("input", { type: "checkbox", value: id, checked: true, "data-testid": "eval-case" }), ` ${id}`))) : h("li", { class: "hint" }, "No cases yet: save a session."));
  }

  const createSet = () =>
    context.guarded(async () => {
      const app = context.app();
      const id = newSetInput.value.trim();
      if (!app || !id) throw new Error("Name the eval set (letters, digits and underscores).");
      await api.createEvalSet(app, id);
      newSetInput.value = "";
      await refresh();
      setSelect.value = id;
      await refreshCases();
    });

  const saveSession = () =>
    context.guarded(async () => {
      const app = context.app();
      const sessionId = context.sessionId();
      const evalId = caseIdInput.value.trim();
      if (!app || !sessionId) throw new Error("Open a session in the Chat tab first: its conversation becomes the eval case.");
      if (!setSelect.value) throw new Error("Create or pick an eval set first.");
      if (!evalId) throw new Error("Name the eval case.");
      await api.addSessionToEvalSet(app, setSelect.value, { eval_id: evalId, session_id: sessionId, user_id: context.userId() });
      caseIdInput.value = "";
      await refreshCases();
    });

  const run = () =>
    context.guarded(async () => {
      const app = context.app();
      if (!app || !setSelect.value) throw new Error("Pick an eval set to run.");
      const chosen = [...caseList.querySelectorAll<HTMLInputElement>("input[type=checkbox]")].filter((box) => box.checked).map((box) => box.value);
      if (chosen.length === 0) throw new Error("Tick at least one eval case to run.");
      replaceChildren(results, h("div", { class: "hint working", "data-testid": "eval-running" }, "running…"));
      const outcome = await api.runEval(app, setSelect.value, {
        eval_ids: chosen,
        eval_metrics: [
          { metric_name: "tool_trajectory_avg_score", threshold: Number(trajectoryInput.value) },
          { metric_name: "response_match_score", threshold: Number(responseInput.value) },
        ],
      });
      replaceChildren(results, outcome.map(resultView));
    });

  const element = h(
    "section",
    { class: "tab eval", hidden: true },
    h("div", { class: "eval-bar" }, h("label", {}, "Eval set "), setSelect, newSetInput, h("button", { "data-testid": "create-eval-set", onclick: () => void createSet() }, "Create set")),
    h("div", { class: "eval-bar" }, caseIdInput, h("button", { "data-testid": "save-session", onclick: () => void saveSession() }, "Save current session as eval case")),
    caseList,
    h(
      "div",
      { class: "eval-bar" },
      h("label", {}, "Tool trajectory ≥ "),
      trajectoryInput,
      h("label", {}, " Response match ≥ "),
      responseInput,
      h("button", { class: "primary", "data-testid": "run-eval", onclick: () => void run() }, "Run evaluation"),
    ),
    results,
  );
  return { element, refresh };
}

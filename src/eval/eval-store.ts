import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describeGiven } from "../errors/unhonoured-option.js";
import { EvalError } from "./eval-error.js";
import type { EvalCase, EvalSet } from "./eval-set.js";
import { camelized, evalSetToJson, readEvalSetFile, snakeCased } from "./eval-set-json.js";

const EVAL_SET_SUFFIX = ".evalset.json";
const RESULT_SUFFIX = ".evalset_result.json";
/**
 * ADK's rule for eval set ids (letters, digits and underscores), which also keeps ids from naming files outside the
 * app's folder; at most 200 of them, so that the file's name (with its suffix) fits the 255 bytes file systems allow.
 */
const ID_PATTERN = /^[a-zA-Z0-9_]{1,200}$/;

/**
 * Eval sets and results kept where ADK's dev server keeps them: the set
 * `<agentsDir>/<app>/<id>.evalset.json`, results in
 * `<agentsDir>/<app>/.adk/eval_history/<result id>.evalset_result.json`. Files
 * are written whole to a temporary name and renamed, so a crash never leaves
 * half a set.
 */
export class LocalEvalStore {
  readonly agentsDir: string;
  /** Changes of sets run one after another: two cases added at once both stay. */
  #changes: Promise<unknown> = Promise.resolve();

  constructor(agentsDir: string) {
    this.agentsDir = agentsDir;
  }

  #appDir(appName: string): string {
    return join(this.agentsDir, appName);
  }

  #setPath(appName: string, evalSetId: string): string {
    if (!ID_PATTERN.test(evalSetId)) throw new EvalError("EVAL_SET_INVALID", `Invalid eval set id ${describeGiven(evalSetId)}: use letters, digits and underscores only, as ADK requires, at most 200 of them.`);
    return join(this.#appDir(appName), `${evalSetId}${EVAL_SET_SUFFIX}`);
  }

  /** The ids of the app's eval sets, sorted. */
  listEvalSets(appName: string): string[] {
    return idsIn(this.#appDir(appName), EVAL_SET_SUFFIX);
  }

  /** Creates an empty set; refuses an id in use, so nothing stored is replaced. */
  createEvalSet(appName: string, evalSetId: string): EvalSet {
    const path = this.#setPath(appName, evalSetId);
    if (existsSync(path)) throw new EvalError("EVAL_SET_EXISTS", `Eval set ${evalSetId} already exists for app ${appName}.`);
    const set: EvalSet = { evalSetId, name: evalSetId, evalCases: [], creationTimestamp: Date.now() / 1000 };
    this.#write(path, evalSetToJson(set));
    return set;
  }

  /** The set, or an EVAL_SET_NOT_FOUND error naming the sets there are. */
  async getEvalSet(appName: string, evalSetId: string): Promise<EvalSet> {
    const path = this.#setPath(appName, evalSetId);
    if (!existsSync(path)) throw new EvalError("EVAL_SET_NOT_FOUND", `Eval set ${evalSetId} not found for app ${appName}. Sets: ${this.listEvalSets(appName).join(", ") || "none yet"}.`);
    return readEvalSetFile(path);
  }

  /** Adds a case; refuses an eval id the set already has. */
  async addEvalCase(appName: string, evalSetId: string, evalCase: EvalCase): Promise<void> {
    return this.#serial(async () => {
      const set = await this.getEvalSet(appName, evalSetId);
      if (set.evalCases.some((existing) => existing.evalId === evalCase.evalId)) throw new EvalError("EVAL_SET_EXISTS", `Eval set ${evalSetId} already has a case ${evalCase.evalId}: choose another eval id.`);
      set.evalCases.push(evalCase);
      this.#write(this.#setPath(appName, evalSetId), evalSetToJson(set));
    });
  }

  /** The case, or an EVAL_CASE_NOT_FOUND error. */
  async getEvalCase(appName: string, evalSetId: string, evalId: string): Promise<EvalCase> {
    const set = await this.getEvalSet(appName, evalSetId);
    const found = set.evalCases.find((evalCase) => evalCase.evalId === evalId);
    if (!found) throw new EvalError("EVAL_CASE_NOT_FOUND", `Eval set ${evalSetId} has no case ${evalId}.`);
    return found;
  }

  /** Replaces a case that exists; `undefined` deletes it. */
  async replaceEvalCase(appName: string, evalSetId: string, evalId: string, evalCase: EvalCase | undefined): Promise<void> {
    return this.#serial(async () => {
      const set = await this.getEvalSet(appName, evalSetId);
      const index = set.evalCases.findIndex((existing) => existing.evalId === evalId);
      if (index < 0) throw new EvalError("EVAL_CASE_NOT_FOUND", `Eval set ${evalSetId} has no case ${evalId}.`);
      if (evalCase) set.evalCases[index] = evalCase;
      else set.evalCases.splice(index, 1);
      this.#write(this.#setPath(appName, evalSetId), evalSetToJson(set));
    });
  }

  #serial<T>(change: () => Promise<T>): Promise<T> {
    const next = this.#changes.then(change, change);
    this.#changes = next.catch(() => undefined);
    return next;
  }

  #historyDir(appName: string): string {
    return join(this.#appDir(appName), ".adk", "eval_history");
  }

  /** Stores a result (given in the camelCase the API answers with) in snake_case, as ADK stores it; returns its id. */
  saveResult(appName: string, result: { evalSetResultId: string } & Record<string, unknown>): string {
    if (!/^[a-zA-Z0-9_.-]+$/.test(result.evalSetResultId)) throw new EvalError("EVAL_SET_INVALID", `Invalid eval result id "${result.evalSetResultId}".`);
    this.#write(join(this.#historyDir(appName), `${result.evalSetResultId}${RESULT_SUFFIX}`), snakeCased(result));
    return result.evalSetResultId;
  }

  /** The ids of the app's stored results, sorted. */
  listResults(appName: string): string[] {
    return idsIn(this.#historyDir(appName), RESULT_SUFFIX);
  }

  /** A stored result in camelCase, or EVAL_SET_NOT_FOUND. */
  async getResult(appName: string, resultId: string): Promise<Record<string, unknown>> {
    const path = join(this.#historyDir(appName), `${resultId}${RESULT_SUFFIX}`);
    if (!/^[a-zA-Z0-9_.-]+$/.test(resultId) || !existsSync(path)) throw new EvalError("EVAL_SET_NOT_FOUND", `Eval result ${resultId} not found for app ${appName}.`);
    try {
      return camelized(JSON.parse(await readFile(path, "utf8"))) as Record<string, unknown>;
    } catch (error) {
      throw new EvalError("EVAL_SET_INVALID", `The stored eval result ${resultId} of app ${appName} cannot be read (${(error as Error).message}); the file is ${path}.`, { cause: error });
    }
  }

  #write(path: string, json: unknown): void {
    mkdirSync(join(path, ".."), { recursive: true });
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(json, null, 2)}\n`);
    renameSync(temporary, path);
  }
}

/** The names of a folder's files that end with `suffix`, without it, sorted; none when the folder does not exist. */
function idsIn(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(suffix))
    .map((name) => name.slice(0, -suffix.length))
    .sort();
}

import type { RunConfig } from "../agents/run-config.js";
import { LIVE_CLOSE, LiveCloseError } from "./live-close.js";

/** What a `/run_live` URL asks for: the session, and the run's live settings. */
export interface LiveQuery {
  appName: string;
  userId: string;
  sessionId: string;
  runConfig: RunConfig;
}

/** The query parameters of ADK Python's `/run_live`, with their names. */
const PARAMETERS = ["app_name", "user_id", "session_id", "modalities", "proactive_audio", "enable_affective_dialog", "enable_session_resumption", "save_live_blob"] as const;
type Parameter = (typeof PARAMETERS)[number];

const MODALITIES = ["TEXT", "AUDIO"];

/**
 * The `/run_live` query, read as ADK Python's server reads it: `app_name`, `user_id`, `session_id`, `modalities`
 * (repeated; `AUDIO` when absent, the live run's default) and the flags ADK's dev UI sends, each mapped to the
 * run config ADK makes of it (`save_live_blob=true` keeps the conversation's audio as artifacts). A parameter is
 * never ignored: an unknown or repeated one, a missing one, or a value of the wrong kind is refused with a
 * {@link LiveCloseError} (1008) that says which and why.
 */
export function readLiveQuery(url: URL): LiveQuery {
  const values = new Map<Parameter, string[]>();
  for (const [name, value] of url.searchParams) {
    if (!(PARAMETERS as readonly string[]).includes(name)) refuse(`/run_live has no query parameter "${name}". It takes ${PARAMETERS.join(", ")}.`);
    const list = values.get(name as Parameter) ?? [];
    list.push(value);
    values.set(name as Parameter, list);
  }
  const single = (name: Parameter): string | undefined => {
    const list = values.get(name);
    if (list && list.length > 1) refuse(`The query parameter ${name} is given ${list.length} times; give it once.`);
    return list?.[0];
  };
  const required = (name: Parameter): string => {
    const value = single(name);
    if (!value) refuse(`The query parameter ${name} is required: /run_live?app_name=<app>&user_id=<user>&session_id=<session>.`);
    return value;
  };
  const flag = (name: Parameter): boolean | undefined => {
    const value = single(name);
    if (value === undefined) return undefined;
    const lower = value.toLowerCase();
    if (lower === "true" || lower === "1") return true;
    if (lower === "false" || lower === "0") return false;
    return refuse(`The query parameter ${name} must be true or false, not "${value}".`);
  };

  const appName = required("app_name");
  const userId = required("user_id");
  const sessionId = required("session_id");
  const runConfig: RunConfig = {};
  const modalities = values.get("modalities");
  if (modalities) {
    runConfig.responseModalities = modalities.map((value) => {
      const modality = value.toUpperCase();
      if (!MODALITIES.includes(modality)) refuse(`The query parameter modalities takes TEXT or AUDIO (repeat it for both), not "${value}".`);
      return modality;
    });
  }
  const proactiveAudio = flag("proactive_audio");
  if (proactiveAudio !== undefined) runConfig.proactivity = { proactiveAudio };
  const affectiveDialog = flag("enable_affective_dialog");
  if (affectiveDialog !== undefined) runConfig.enableAffectiveDialog = affectiveDialog;
  // Handles are asked for, so a dropped connection is taken up again (transparent resumption is Vertex AI's; the Gemini adapter leaves it out elsewhere).
  if (flag("enable_session_resumption")) runConfig.sessionResumption = { transparent: true };
  // The conversation's audio is kept as artifacts of the session (runConfig.saveLiveBlob).
  if (flag("save_live_blob")) runConfig.saveLiveBlob = true;
  return { appName, userId, sessionId, runConfig };
}

function refuse(message: string): never {
  throw new LiveCloseError(LIVE_CLOSE.POLICY_VIOLATION, "INVALID_QUERY", message);
}

import type { Content, Part } from "../events/content.js";
import type { Event } from "../events/event.js";

/** Function calls the runner makes to the client rather than to a tool; the model never sees them. */
export const CLIENT_FUNCTION_NAMES: ReadonlySet<string> = new Set(["adk_request_confirmation", "adk_request_credential"]);

/**
 * The conversation as this agent's model should see it: its own and the
 * user's turns as they are; other agents' turns retold as user context (a
 * model must not believe it said what another agent said); events of other
 * parallel branches, partial chunks, errors and client-only calls left out.
 */
export function buildContents(events: readonly Event[], agentName: string, branch: string | undefined): Content[] {
  const contents: Content[] = [];
  for (const event of events) {
    if (!event.content?.parts?.length || event.partial || event.errorCode) continue;
    if (branch && event.branch && !branch.startsWith(event.branch)) continue;
    const parts = event.content.parts.filter((part) => !isClientPart(part));
    if (parts.length === 0) continue;
    if (event.author === agentName || event.author === "user") {
      contents.push(parts.length === event.content.parts.length ? event.content : { ...event.content, parts });
    } else {
      contents.push(retellForeignEvent(event.author, parts));
    }
  }
  return contents;
}

function isClientPart(part: Part): boolean {
  const name = part.functionCall?.name ?? part.functionResponse?.name;
  return name !== undefined && CLIENT_FUNCTION_NAMES.has(name);
}

function retellForeignEvent(author: string, parts: readonly Part[]): Content {
  const retold: Part[] = [{ text: "For context:" }];
  for (const part of parts) {
    if (part.thought) continue;
    if (part.text !== undefined) retold.push({ text: `[${author}] said: ${part.text}` });
    else if (part.functionCall) {
      retold.push({ text: `[${author}] called tool \`${part.functionCall.name}\` with parameters: ${JSON.stringify(part.functionCall.args ?? {})}` });
    } else if (part.functionResponse) {
      retold.push({ text: `[${author}] \`${part.functionResponse.name}\` tool returned result: ${JSON.stringify(part.functionResponse.response)}` });
    } else retold.push(part);
  }
  return { role: "user", parts: retold };
}

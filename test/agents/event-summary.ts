import type { Event } from "../../src/index.js";

/** One line per event: who, where, and what it carried, for asserting exact event sequences. */
export function summarize(events: readonly Event[]): string[] {
  return events.map((event) => {
    const where = event.branch ? `${event.author}@${event.branch.replace(/@[^.]+/g, "@…")}` : event.author;
    const parts = (event.content?.parts ?? []).map((part) => {
      if (part.text !== undefined) return `text ${JSON.stringify(part.text)}`;
      if (part.functionCall) return `call ${part.functionCall.name}${part.functionCall.name?.startsWith("adk_") ? "" : ` ${JSON.stringify(part.functionCall.args ?? {})}`}`;
      if (part.functionResponse) return `response ${part.functionResponse.name} ${JSON.stringify(part.functionResponse.response)}`;
      return "other";
    });
    const flags = [event.partial ? "partial" : "", event.longRunningToolIds?.length ? "waiting" : "", event.errorCode ? `error ${event.errorCode}` : ""].filter(Boolean);
    return [where, ...parts, ...flags].join(" | ");
  });
}

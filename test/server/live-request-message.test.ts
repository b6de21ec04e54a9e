/** What `/run_live` reads from its client, without a server: the query, each message, and the close reason. */
import { describe, expect, it } from "vitest";
import { closeReason, LiveCloseError } from "../../src/server/live-close.js";
import { readLiveQuery } from "../../src/server/live-query.js";
import { parseLiveRequestMessage } from "../../src/server/live-request-message.js";

const refusal = (run: () => unknown): LiveCloseError => {
  try {
    run();
  } catch (error) {
    if (error instanceof LiveCloseError) return error;
    throw error;
  }
  throw new Error("It was not refused.");
};

describe("parseLiveRequestMessage", () => {
  it("reads each LiveRequest field in ADK Python's snake_case and in camelCase", () => {
    expect(parseLiveRequestMessage('{"activity_start": {}}')).toEqual({ activityStart: {} });
    expect(parseLiveRequestMessage('{"activityStart": {}}')).toEqual({ activityStart: {} });
    expect(parseLiveRequestMessage('{"activity_end": {}}')).toEqual({ activityEnd: {} });
    expect(parseLiveRequestMessage('{"activityEnd": {}}')).toEqual({ activityEnd: {} });
    expect(parseLiveRequestMessage('{"close": true}')).toEqual({ close: true });
    expect(parseLiveRequestMessage('{"blob": {"mime_type": "audio/pcm", "data": "AQID"}}')).toEqual({ blob: { mimeType: "audio/pcm", data: "AQID" } });
    expect(parseLiveRequestMessage('{"blob": {"mimeType": "image/jpeg", "data": "_-8=", "display_name": "frame"}}')).toEqual({ blob: { mimeType: "image/jpeg", data: "_-8=", displayName: "frame" } });
  });

  it("takes null fields and close: false as absent, as a pydantic model_dump_json() writes them", () => {
    const dumped = { content: { parts: [{ text: "Hi", inline_data: null }], role: "user" }, blob: null, activity_start: null, activity_end: null, close: false };
    expect(parseLiveRequestMessage(JSON.stringify(dumped))).toEqual({ content: { role: "user", parts: [{ text: "Hi" }] } });
  });

  it("camelCases a content's parts but leaves a call's arguments and a tool's result as sent, and makes the role user when absent", () => {
    const message = { content: { parts: [{ function_response: { id: "c1", name: "lookup", response: { some_key: 1, nested_value: { a_b: 2 } } } }, { function_call: { name: "f", args: { snake_arg: true } } }] } };
    expect(parseLiveRequestMessage(JSON.stringify(message))).toEqual({
      content: { role: "user", parts: [{ functionResponse: { id: "c1", name: "lookup", response: { some_key: 1, nested_value: { a_b: 2 } } } }, { functionCall: { name: "f", args: { snake_arg: true } } }] },
    });
  });

  it("keeps a __proto__ key as data", () => {
    const request = parseLiveRequestMessage('{"content": {"parts": [{"text": "Hi", "__proto__": {"polluted": true}}]}}');
    expect(Object.getPrototypeOf(request.content!.parts![0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["not JSON", "Hi", "A message is not JSON"],
    ["an array", "[]", "A message must be a JSON object."],
    ["an unknown field", '{"text": "Hi"}', 'A message has no field "text".'],
    ["no field set", '{"close": false, "content": null}', "A message sets none of its fields."],
    ["two fields set", '{"activity_start": {}, "activity_end": {}}', "A message sets activityStart and activityEnd; set one per message."],
    ["a content without parts", '{"content": {"role": "user"}}', "content needs a list of parts"],
    ["a content whose role is not a string", '{"content": {"role": 1, "parts": [{"text": "Hi"}]}}', "content.role must be a string"],
    ["a blob without its mime type", '{"blob": {"data": "AQID"}}', "blob needs its mime_type"],
    ["a blob whose data is not base64", '{"blob": {"mime_type": "audio/pcm", "data": "not base64!"}}', "blob needs its data as a base64 string"],
    ["a blob with an unknown field", '{"blob": {"mime_type": "audio/pcm", "data": "AQID", "rate": 16000}}', 'blob has no field "rate"'],
    ["an activity mark with fields", '{"activity_start": {"at": 1}}', 'activityStart must be an empty object: {"activity_start": {}}'],
    ["close that is not true", '{"close": "yes"}', 'close must be true, not "yes"'],
    ["a content nested too deep", JSON.stringify({ content: { parts: [{ text: "Hi", extra: JSON.parse("[".repeat(40) + "]".repeat(40)) }] } }), "nests more than 32 levels"],
  ])("refuses %s with 1007 and says what is wrong", (_case, text, message) => {
    const error = refusal(() => parseLiveRequestMessage(text));
    expect(error).toMatchObject({ closeCode: 1007, code: "INVALID_LIVE_REQUEST" });
    expect(error.message).toContain(message);
  });
});

describe("readLiveQuery", () => {
  const read = (query: string) => readLiveQuery(new URL(`http://localhost/run_live?${query}`));

  it("reads the session and leaves the settings to the run's defaults when none is given", () => {
    expect(read("app_name=a&user_id=u&session_id=s")).toEqual({ appName: "a", userId: "u", sessionId: "s", runConfig: {} });
  });

  it("reads modalities repeated and in any case, and the flags as ADK's server maps them", () => {
    expect(read("app_name=a&user_id=u&session_id=s&modalities=audio&modalities=TEXT&proactive_audio=false&enable_affective_dialog=1").runConfig).toEqual({
      responseModalities: ["AUDIO", "TEXT"],
      proactivity: { proactiveAudio: false },
      enableAffectiveDialog: true,
    });
  });

  it("refuses an empty required parameter", () => {
    expect(refusal(() => read("app_name=&user_id=u&session_id=s"))).toMatchObject({ closeCode: 1008, code: "INVALID_QUERY", message: expect.stringContaining("The query parameter app_name is required") });
  });
});

describe("closeReason", () => {
  it("keeps a reason that fits a close frame and cuts a longer one at a character boundary, within 123 bytes", () => {
    expect(closeReason("Session not found")).toBe("Session not found");
    const cut = closeReason("é".repeat(100));
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(123);
    expect(cut).toMatch(/^é+…$/);
  });
});

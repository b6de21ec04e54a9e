import { describe, expect, it } from "vitest";
import { liveUrl } from "../../ui/api.js";

describe("the web UI's /run_live address", () => {
  it("uses the page's host, wss behind HTTPS and ws otherwise, with the session's names escaped and audio asked for", () => {
    expect(liveUrl({ protocol: "https:", host: "agents.example.com" }, "my app", "ana&bo", "s/1")).toBe("wss://agents.example.com/run_live?app_name=my+app&user_id=ana%26bo&session_id=s%2F1&modalities=AUDIO");
    expect(liveUrl({ protocol: "http:", host: "127.0.0.1:8000" }, "shop", "user", "abc")).toBe("ws://127.0.0.1:8000/run_live?app_name=shop&user_id=user&session_id=abc&modalities=AUDIO");
  });
});

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopServing } from "./agent-app.js";
import { FAKE_MICROPHONE, hasChromium, launchChromium, onlyLoopbackAndLocalFonts, startToolsmith } from "./browser.js";
import { writeVoiceApps } from "./voice-app.js";

/**
 * ADK's own dev UI (from `@google/adk-devtools`, served with `--adk-dev-ui`) calling an agent through its call
 * button: its microphone streamed over toolsmith's `/run_live` as ADK Python's server would take it.
 */
describe.skipIf(!hasChromium)("ADK's dev UI calling an agent over toolsmith's /run_live (a fake microphone)", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let page: Page;
  const sockets: string[] = [];

  beforeAll(async () => {
    const { agents, speech } = writeVoiceApps();
    [server, browser] = await Promise.all([startToolsmith(["web", agents, "--adk-dev-ui"]), launchChromium([...FAKE_MICROPHONE, `--use-file-for-fake-audio-capture=${speech}`])]);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, permissions: ["microphone"] });
    page = await context.newPage();
    await onlyLoopbackAndLocalFonts(page, server.url);
    page.on("websocket", (socket) => sockets.push(new URL(socket.url()).pathname + new URL(socket.url()).search.replace(/session_id=[^&]+/, "session_id=<id>")));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stopServing(server);
  });

  it("streams the call's audio, shows the transcriptions, the tool call and the answer, and the session keeps them", async () => {
    await page.goto(`${server.url}/dev-ui/?app=voice`);
    const call = page.locator("button.audio-rec-btn");
    await call.waitFor();
    await expect.poll(() => call.isEnabled()).toBe(true);
    await call.click();

    // ADK's UI records at 22 kHz and names the audio "audio/pcm"; the model's transcription says what reached it.
    await page.getByText(/heard \d+ bytes of audio\/pcm in \d+ messages, peak \d+/).first().waitFor();
    await page.getByText("It is sunny in Paris.").first().waitFor();
    const said = /heard (\d+) bytes of (\S+) in (\d+) messages, peak (\d+)/.exec(await page.locator("body").innerText())!;
    console.log(`ADK's dev UI: the model got ${said[1]} bytes of ${said[2]} in ${said[3]} messages, peak ${said[4]} of 32767`);
    expect(Number(said[4])).toBeGreaterThan(500);
    expect(sockets).toEqual(["/run_live?app_name=voice&user_id=user&session_id=<id>"]);

    await call.click(); // call_end: the UI closes its socket, which ends the live run
    const sessions = (await (await fetch(`${server.url}/apps/voice/users/user/sessions`)).json()) as { id: string }[];
    expect(sessions).toHaveLength(1);
    const stored = async () => {
      const session = (await (await fetch(`${server.url}/apps/voice/users/user/sessions/${sessions[0]!.id}`)).json()) as { events: Array<Record<string, any>> };
      return session.events.map((event) => (event.inputTranscription ? "heard" : (event.outputTranscription?.text ?? event.content?.parts?.map((part: any) => part.functionCall?.name ?? part.functionResponse?.name).join() ?? (event.turnComplete ? "(turn complete)" : "?"))));
    };
    await expect.poll(stored).toEqual(["heard", "get_weather", "get_weather", "It is sunny in Paris.", "(turn complete)"]);
  });
});

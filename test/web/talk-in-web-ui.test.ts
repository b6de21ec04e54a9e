import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopServing } from "./agent-app.js";
import { buildWebUi, FAKE_MICROPHONE, hasChromium, launchChromium, onlyLoopback, screenshotPath, startToolsmith } from "./browser.js";
import { writeVoiceApps } from "./voice-app.js";

describe.skipIf(!hasChromium)("talking to an agent in the web UI (/run_live, a fake microphone)", () => {
  let server: Awaited<ReturnType<typeof startToolsmith>>;
  let browser: Browser;
  let granted: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const { agents, speech } = writeVoiceApps();
    await buildWebUi();
    [server, browser] = await Promise.all([startToolsmith(["web", agents]), launchChromium([...FAKE_MICROPHONE, `--use-file-for-fake-audio-capture=${speech}`])]);
    granted = await browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ["microphone", "camera"] });
    page = await granted.newPage();
    await onlyLoopback(page, server.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stopServing(server);
  });

  /** Opens `app` in a fresh page load, makes a new session in the page, and waits until the page shows it; its id. */
  async function openNewSession(on: Page, app: string): Promise<string> {
    // From a blank page: going from one app's address to another's changes only the hash, which loads nothing.
    await on.goto("about:blank");
    await on.goto(`${server.url}/#app=${app}`);
    await on.getByTestId("new-session").waitFor();
    const created = on.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === `/apps/${app}/users/user/sessions`);
    await on.getByTestId("new-session").click();
    const { id } = (await (await created).json()) as { id: string };
    // The page opened it: its entry in the list is the active one.
    await on.locator('[data-testid="session"].active', { hasText: id.slice(0, 8) }).waitFor();
    return id;
  }

  it("streams the microphone as 16 kHz PCM, shows what was said and heard, plays the answer, and stores the conversation", async () => {
    const sessionId = await openNewSession(page, "voice");
    await page.getByTestId("talk").click();
    await expect.poll(() => page.getByTestId("talk-status").innerText()).toContain("Live: listening");
    expect(await page.getByTestId("talk").innerText()).toBe("Stop talking");

    // The model's transcription of the user says what reached it: 16-bit PCM at 16 kHz, in tenths of a second, not silence.
    const heard = page.getByTestId("event-text").filter({ hasText: "heard" });
    await heard.waitFor();
    const said = await heard.innerText();
    const [, bytes, mimeTypes, messages, peak] = /^heard (\d+) bytes of (.+) in (\d+) messages, peak (\d+)$/.exec(said)!;
    console.log(`talk: the model got ${bytes} bytes of ${mimeTypes} in ${messages} messages, peak ${peak} of 32767`);
    expect(mimeTypes).toBe("audio/pcm;rate=16000");
    expect(Number(bytes)).toBe(Number(messages) * 3200);
    expect(Number(peak)).toBeGreaterThan(500);

    // The tool ran, and the answer was shown as it was spoken and played.
    await page.getByTestId("event-text").filter({ hasText: "It is sunny in Paris." }).waitFor();
    await expect.poll(() => page.getByTestId("talk-status").innerText()).toContain("heard 0.3 s");
    const chat = await page.getByTestId("events").innerText();
    expect(chat).toContain("call: get_weather");
    expect(chat).toContain("response: get_weather (success)");
    expect(await page.locator('[data-kind~="spoken"]').count()).toBe(2);

    // A typed message joins the conversation.
    await page.getByTestId("message").fill("thanks");
    await page.getByTestId("message").press("Enter");
    await page.getByTestId("event-text").filter({ hasText: "You wrote: thanks" }).waitFor();
    await page.screenshot({ path: screenshotPath("web-ui-talk.png") });

    await page.getByTestId("talk").click();
    await expect.poll(() => page.getByTestId("talk").innerText()).toBe("Talk");
    expect(await page.getByTestId("talk-status").isHidden()).toBe(true);
    if (!(await page.getByTestId("error").isHidden())) console.log("error shown:", await page.getByTestId("error").innerText());
    expect(await page.getByTestId("error").isHidden()).toBe(true);

    // The session as stored: what was said and heard as text, the call and its result; no raw audio.
    const session = (await (await fetch(`${server.url}/apps/voice/users/user/sessions/${sessionId}`)).json()) as { events: Array<Record<string, any>> };
    const stored = session.events.map((event) => event.inputTranscription?.text?.replace(/\d+/g, "#") ?? event.outputTranscription?.text ?? event.content?.parts?.map((part: any) => part.text ?? part.functionCall?.name ?? part.functionResponse?.name ?? Object.keys(part).join()).join(" ") ?? (event.turnComplete ? "(turn complete)" : Object.keys(event).join()));
    expect(stored).toEqual(["heard # bytes of audio/pcm;rate=# in # messages, peak #", "get_weather", "get_weather", "It is sunny in Paris.", "(turn complete)", "thanks", "You wrote: thanks", "(turn complete)"]);
    expect(JSON.stringify(session.events)).not.toContain("inlineData");
    // After the reload the page shows the stored conversation, without the turns' end marks.
    await expect.poll(() => page.getByTestId("event").count()).toBe(6);
  });

  it("sends the camera a frame a second during a conversation, which a streaming tool reading its input stream sees", async () => {
    const sessionId = await openNewSession(page, "voice");
    await page.getByTestId("talk").click();
    await expect.poll(() => page.getByTestId("talk-status").innerText()).toContain("Live: listening");
    await page.getByTestId("camera").click();
    await page.getByTestId("camera-preview").locator("video").waitFor();
    expect(await page.getByTestId("camera").innerText()).toBe("Stop camera");
    await page.getByTestId("message").fill("watch my camera");
    await page.getByTestId("message").press("Enter");
    // The tool's results reach the model as messages, shown as the conversation's.
    const seen = page.getByTestId("event-text").filter({ hasText: /^Function watch_camera returned: saw a \d+x\d+ JPEG frame$/ });
    await expect.poll(() => seen.count(), { timeout: 10_000 }).toBe(2);
    const frame = await seen.first().innerText();
    console.log(`camera: ${frame}; ${await page.getByTestId("talk-text").innerText()}`);
    expect(frame).not.toContain("?x");
    await expect.poll(() => page.getByTestId("talk-text").innerText()).toMatch(/Sent [1-9]\d* camera frames?\./);
    await page.getByTestId("camera").click();
    expect(await page.getByTestId("camera-preview").isHidden()).toBe(true);
    await page.getByTestId("talk").click();
    await expect.poll(() => page.getByTestId("talk").innerText()).toBe("Talk");

    const session = (await (await fetch(`${server.url}/apps/voice/users/user/sessions/${sessionId}`)).json()) as { events: Array<Record<string, any>> };
    const texts = session.events.map((event) => event.content?.parts?.[0]?.text ?? event.content?.parts?.[0]?.functionCall?.name ?? event.content?.parts?.[0]?.functionResponse?.name).filter(Boolean);
    expect(texts.slice(0, 3)).toEqual(["watch my camera", "watch_camera", "watch_camera"]);
    expect(texts.filter((text: string) => /^Function watch_camera returned: saw a \d+x\d+ JPEG frame$/.test(text))).toHaveLength(2);
    expect(JSON.stringify(session.events)).not.toContain("image/jpeg");
  });

  it("says so when the microphone is not allowed, and starts no run", async () => {
    const refused = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const other = await refused.newPage();
    await onlyLoopback(other, server.url);
    const sessionId = await openNewSession(other, "voice");
    await other.getByTestId("talk").click();
    await other.getByTestId("error").waitFor();
    expect(await other.getByTestId("error").innerText()).toBe("The microphone was not allowed. Allow it for this page in the browser's site settings, then press Talk again.");
    expect(await other.getByTestId("talk").innerText()).toBe("Talk");
    const session = (await (await fetch(`${server.url}/apps/voice/users/user/sessions/${sessionId}`)).json()) as { events: unknown[] };
    expect(session.events).toEqual([]);
    await refused.close();
  });

  it("shows the run's error when the app's model cannot hold a live conversation", async () => {
    const sessionId = await openNewSession(page, "typist");
    await page.getByTestId("talk").click();
    await page.getByTestId("error").waitFor();
    const error = await page.getByTestId("error").innerText();
    console.log(`talk with a text-only model: ${error}`);
    expect(error).toMatch(/^LIVE_UNSUPPORTED: /);
    await expect.poll(() => page.getByTestId("talk").innerText()).toBe("Talk");
    // The error is stored as the run's last event, and shown in the session.
    const session = (await (await fetch(`${server.url}/apps/typist/users/user/sessions/${sessionId}`)).json()) as { events: Array<{ errorCode?: string }> };
    expect(session.events.map((event) => event.errorCode)).toEqual(["LIVE_UNSUPPORTED"]);
    await expect.poll(() => page.getByTestId("event").count()).toBe(1);
  });
});

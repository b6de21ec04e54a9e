/**
 * The proof that every service is shared: two real `toolsmith api-server`
 * processes over one PostgreSQL (the suite's own), with artifacts, memory and
 * credentials all in that database. An artifact saved through one is loaded
 * through the other; memory added through one is found through the other; a
 * key a user gave through one is used by the other, and again after that
 * server restarts, and is stored only encrypted. A server started with a bad
 * URI, a missing bucket, a missing or a wrong key exits with a clear error,
 * and what is stored stays as it was.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChildServer, type ChildServer } from "../support/child-server.js";
import { freePort } from "../support/free-port.js";
import { freshDatabase, postgresMissing, postgresUrl, queryDatabase } from "../support/postgres.js";
import { startLocalS3, type LocalS3 } from "../support/s3-server.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";
import { tempDir } from "../support/temp-dir.js";

const AGENTS = "test/fixtures/shared-services";
const APP = "shared_app";
const dir = tempDir();
const key = randomBytes(32).toString("base64");
const WEATHER_KEY = "wk-SECRET-7421";

type Json = Record<string, any>;

describe.skipIf(!postgresUrl)(`two api-server processes over one PostgreSQL ${postgresMissing}`, () => {
  let url = "";
  let a: ChildServer;
  let b: ChildServer;
  let s3: LocalS3;

  /** `toolsmith api-server` over `url` for everything, with the credential key, on a free port. */
  async function startServer(env: Record<string, string> = { TOOLSMITH_CREDENTIAL_KEY: key }): Promise<ChildServer> {
    const port = await freePort();
    return startChildServer({
      args: [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", "api-server", AGENTS, "--port", String(port), "--session-service-uri", url, "--artifact-service-uri", url],
      ready: /API server at/,
      port,
      env,
      timeoutMs: 60_000,
    });
  }

  /** Runs the command to its end (it must not stay up), with `env` added to this process's. */
  function runToolsmith(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", ...args], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, _stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
  }

  const base = (server: ChildServer) => `http://127.0.0.1:${server.port}`;
  async function call(server: ChildServer, path: string, json?: unknown): Promise<any> {
    const response = await fetch(`${base(server)}${path}`, json === undefined ? {} : { method: "POST", body: JSON.stringify(json), headers: { "content-type": "application/json" } });
    const body = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${body}`);
    return JSON.parse(body);
  }
  const newSession = async (server: ChildServer, userId = "ada") => (await call(server, `/apps/${APP}/users/${userId}/sessions`, {})).id as string;
  const callTool = (server: ChildServer, sessionId: string, tool: string, args: Json = {}) => call(server, `/apps/${APP}/users/ada/sessions/${sessionId}/tools/${tool}/call`, { args });
  const run = (server: ChildServer, sessionId: string, newMessage: Json): Promise<Json[]> => call(server, "/run", { appName: APP, userId: "ada", sessionId, newMessage });
  const say = (text: string) => ({ role: "user", parts: [{ text }] });
  const functionCalls = (events: Json[]) => events.flatMap((event) => event.content?.parts ?? []).filter((part: Json) => part.functionCall).map((part: Json) => part.functionCall);
  const lastText = (events: Json[]) => events.at(-1)?.content?.parts?.[0]?.text as string;

  const query = (sql: string) => queryDatabase(url, sql);

  beforeAll(async () => {
    url = await freshDatabase();
    [a, b, s3] = await Promise.all([startServer(), startServer(), startLocalS3({ directory: dir, buckets: ["present"] })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), s3?.stop()]);
  });

  it("share artifacts: saved through one, loaded, versioned and listed through the other, user: names across sessions", async () => {
    const session = await newSession(a);
    expect((await callTool(a, session, "save_note", { name: "report.txt", text: "draft from A" })).response).toEqual({ version: 0 });
    expect(await call(b, `/apps/${APP}/users/ada/sessions/${session}/artifacts/report.txt`)).toEqual({ text: "draft from A" });
    expect((await callTool(b, session, "save_note", { name: "report.txt", text: "final from B" })).response).toEqual({ version: 1 });
    expect(await call(a, `/apps/${APP}/users/ada/sessions/${session}/artifacts/report.txt/versions`)).toEqual([0, 1]);
    expect(await call(a, `/apps/${APP}/users/ada/sessions/${session}/artifacts/report.txt`)).toEqual({ text: "final from B" });
    expect(await call(a, `/apps/${APP}/users/ada/sessions/${session}/artifacts/report.txt/versions/0`)).toEqual({ text: "draft from A" });

    const other = await newSession(b);
    await callTool(b, other, "save_note", { name: "user:profile.txt", text: "likes fog" });
    expect(await call(a, `/apps/${APP}/users/ada/sessions/${session}/artifacts`)).toEqual(["report.txt", "user:profile.txt"]);
    expect(await call(a, `/apps/${APP}/users/ada/sessions/${session}/artifacts/user:profile.txt`)).toEqual({ text: "likes fog" });
  });

  it("share memory: a session remembered through one is found through the other", async () => {
    const session = await newSession(a);
    expect(lastText(await run(a, session, say("the lighthouse keeper feeds the gulls at dawn")))).toBe("noted");
    await callTool(a, session, "remember");
    const elsewhere = await newSession(b);
    const { response } = await callTool(b, elsewhere, "recall", { query: "lighthouse" });
    expect(response.found).toContain("the lighthouse keeper feeds the gulls at dawn");
  });

  it("share credentials: a key given through one is used by the other and after it restarts, stored only encrypted", async () => {
    const first = await newSession(a);
    const asked = await run(a, first, say("call weather"));
    const request = functionCalls(asked).find((functionCall: Json) => functionCall.name === "adk_request_credential");
    expect(request?.args?.authConfig).toMatchObject({ authScheme: { type: "apiKey" } });
    const answer = { ...request.args.authConfig, exchangedAuthCredential: { authType: "apiKey", apiKey: WEATHER_KEY } };
    const answered = await run(a, first, { role: "user", parts: [{ functionResponse: { id: request.id, name: "adk_request_credential", response: answer } }] });
    expect(lastText(answered)).toBe('weather: {"forecast":"sunny","keyEndsWith":"7421"}');

    const onB = await run(b, await newSession(b), say("call weather"));
    expect(functionCalls(onB).map((functionCall: Json) => functionCall.name)).toEqual(["weather"]);
    expect(lastText(onB)).toBe('weather: {"forecast":"sunny","keyEndsWith":"7421"}');

    await b.stop();
    b = await startServer();
    const afterRestart = await run(b, await newSession(b), say("call weather"));
    expect(functionCalls(afterRestart).map((functionCall: Json) => functionCall.name)).toEqual(["weather"]);
    expect(lastText(afterRestart)).toBe('weather: {"forecast":"sunny","keyEndsWith":"7421"}');

    const stored = await query("SELECT * FROM toolsmith_credentials");
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ app_name: APP, user_id: "ada", credential_key: "weather-api" });
    expect(JSON.stringify(stored)).not.toContain(WEATHER_KEY);
  });

  it("refuse to start with a wrong, missing or malformed key, a bad URI or a missing bucket, saying what to do, and leave what is stored as it was", async () => {
    const credentialsBefore = await query("SELECT * FROM toolsmith_credentials ORDER BY credential_key");
    const artifactsBefore = await query("SELECT id, filename, version, size FROM toolsmith_artifacts ORDER BY id");
    expect(credentialsBefore.length).toBeGreaterThan(0);
    const serve = (extra: string[]) => ["api-server", AGENTS, "--port", "0", "--session-service-uri", url, ...extra];

    const wrongKey = await runToolsmith(serve(["--artifact-service-uri", url]), { TOOLSMITH_CREDENTIAL_KEY: randomBytes(32).toString("base64") });
    expect(wrongKey.code).not.toBe(0);
    expect(wrongKey.stderr).toMatch(
      /^toolsmith: The stored credentials were encrypted under another key \(key id [0-9a-f]{12}\); TOOLSMITH_CREDENTIAL_KEY holds key id [0-9a-f]{12}\. Set TOOLSMITH_CREDENTIAL_KEY to the key they were stored with\. Nothing was changed: the stored credentials are kept as they were\.\n$/,
    );

    const noKey = await runToolsmith(serve(["--credential-service-uri", url]), { TOOLSMITH_CREDENTIAL_KEY: undefined });
    expect(noKey.code).not.toBe(0);
    expect(noKey.stderr).toMatch(/^toolsmith: Storing credentials in a database needs an encryption key in TOOLSMITH_CREDENTIAL_KEY, which is not set\. Make one with: node -e /);

    const malformed = await runToolsmith(serve([]), { TOOLSMITH_CREDENTIAL_KEY: "letmein" });
    expect(malformed.stderr).toMatch(/^toolsmith: TOOLSMITH_CREDENTIAL_KEY is not a usable key: it is 5 bytes long, not 32\./);

    const badUri = await runToolsmith(serve(["--artifact-service-uri", "redis://cache:6379"]), { TOOLSMITH_CREDENTIAL_KEY: key });
    expect(badUri.stderr).toBe(
      'toolsmith: "redis://cache:6379" does not name an artifact service. Use one of: memory://, file://, postgres://, postgresql://, s3:// (for example file://.toolsmith/artifacts).\n',
    );

    const missingBucket = await runToolsmith(serve(["--artifact-service-uri", `s3://absent/prefix?endpoint=${s3.endpoint}&forcePathStyle=true`]), { TOOLSMITH_CREDENTIAL_KEY: key, ...s3.env });
    // The AWS SDK may add its own warning about this Node's version before toolsmith's line.
    expect(missingBucket.stderr.split("\n").filter((line) => line.startsWith("toolsmith:")).join("\n")).toBe(
      `toolsmith: The bucket of s3://absent at ${s3.endpoint} does not exist. Create it first (aws s3 mb s3://absent), or fix the bucket name; nothing was stored.`,
    );
    // The memory and credential flags reach their services: a URI neither takes is refused by name.
    const badMemory = await runToolsmith(serve(["--memory-service-uri", "redis://cache:6379"]), { TOOLSMITH_CREDENTIAL_KEY: key });
    expect(badMemory.stderr).toMatch(/^toolsmith: "redis:\/\/cache:6379" does not name a memory service\. Use one of: memory:\/\/, sqlite:\/\/, postgres:\/\/, postgresql:\/\//);
    const badCredentials = await runToolsmith(serve(["--credential-service-uri", "file://secrets"]), { TOOLSMITH_CREDENTIAL_KEY: key });
    expect(badCredentials.stderr).toMatch(/^toolsmith: "file:\/\/secrets" does not name a credential service\. Use one of: memory:\/\/, sqlite:\/\/, postgres:\/\/, postgresql:\/\//);
    for (const refused of [wrongKey, noKey, malformed, badUri, missingBucket, badMemory, badCredentials]) expect(refused.code).toBe(3);

    expect(await query("SELECT * FROM toolsmith_credentials ORDER BY credential_key")).toEqual(credentialsBefore);
    expect(await query("SELECT id, filename, version, size FROM toolsmith_artifacts ORDER BY id")).toEqual(artifactsBefore);
    const stillWorks = await run(a, await newSession(a), say("call weather"));
    expect(lastText(stillWorks)).toBe('weather: {"forecast":"sunny","keyEndsWith":"7421"}');
  });

  it("take an s3:// artifact URI alongside PostgreSQL for the rest", async () => {
    const port = await freePort();
    const server = await startChildServer({
      args: [...SOURCE_NODE_FLAGS, "bin/toolsmith.mjs", "api-server", AGENTS, "--port", String(port), "--session-service-uri", url, "--artifact-service-uri", `s3://present/team?endpoint=${s3.endpoint}&forcePathStyle=true`],
      ready: /API server at/,
      port,
      env: { TOOLSMITH_CREDENTIAL_KEY: key, ...s3.env },
      timeoutMs: 60_000,
    });
    try {
      const session = await newSession(server);
      await callTool(server, session, "save_note", { name: "in-s3.txt", text: "kept in the bucket" });
      expect(await call(server, `/apps/${APP}/users/ada/sessions/${session}/artifacts/in-s3.txt`)).toEqual({ text: "kept in the bucket" });
      expect(await query("SELECT count(*)::int AS count FROM toolsmith_artifacts WHERE filename = 'in-s3.txt'")).toEqual([{ count: 0 }]);
    } finally {
      await server.stop();
    }
  });
});

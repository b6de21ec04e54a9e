import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { load as parseYaml } from "js-yaml";
import { describe, expect, it } from "vitest";
import { freePort } from "../support/child-server.js";
import { freshDatabase, postgresMissing, postgresUrl } from "../support/postgres.js";
import { SOURCE_NODE_FLAGS } from "../support/source-node-flags.js";

// No Docker daemon (and no image registry) is reachable on the machines this suite runs on, so the image is not
// built here: these tests check what the files say, and run the image's own command the way compose runs it.
const DEPLOY = join(process.cwd(), "deploy");
const compose = parseYaml(readFileSync(join(DEPLOY, "compose.yaml"), "utf8")) as Record<string, any>;
const dockerfile = readFileSync(join(DEPLOY, "Dockerfile"), "utf8");
const tokens = JSON.parse(readFileSync(join(DEPLOY, "tokens.json"), "utf8")) as Record<string, string>;

/** The Dockerfile's CMD, as the exec form array it declares. */
const command = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];

describe("deploy/compose.yaml", () => {
  it("runs two API replicas over one PostgreSQL behind the proxy, stopping them slower than they drain", () => {
    const { api, postgres, proxy } = compose.services;
    expect(api.deploy.replicas).toBe(2);
    expect(new URL(api.environment.DATABASE_URL).hostname).toBe("postgres");
    expect(postgres.image).toMatch(/^postgres:/);
    expect(proxy.depends_on).toContain("api");
    expect(Number.parseInt(api.stop_grace_period, 10)).toBeGreaterThan(Number(api.environment.SHUTDOWN_GRACE));
    const nginx = readFileSync(join(DEPLOY, "nginx.conf"), "utf8");
    expect(nginx).toContain("server api:8000");
    expect(nginx).toMatch(/proxy_next_upstream[^;]*http_503/);
    expect(nginx).toContain("proxy_buffering off");
  });
});

describe.skipIf(!postgresUrl)(`deploy/Dockerfile's command ${postgresMissing}`, () => {
  it("serves two replicas over one PostgreSQL as compose starts them: both ready, a session made on one read on the other", async () => {
    expect(command.slice(0, 2)).toEqual(["sh", "-c"]);
    const databaseUrl = await freshDatabase();
    const replicas: Array<{ child: ChildProcess; port: number; output: () => string }> = [];
    try {
      for (let index = 0; index < 2; index++) {
        const port = await freePort();
        // The image's command with node given the flags that run toolsmith from its sources, as the suite does.
        const script = command[2]!.replace("exec node ", `exec node ${SOURCE_NODE_FLAGS.join(" ")} `);
        const child = spawn("sh", ["-c", script], {
          cwd: process.cwd(),
          env: { ...process.env, ...compose.services.api.environment, DATABASE_URL: databaseUrl, AGENTS: "examples", PORT: String(port), TOKENS_FILE: join(DEPLOY, "tokens.json") },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout!.on("data", (chunk) => (output += chunk));
        child.stderr!.on("data", (chunk) => (output += chunk));
        replicas.push({ child, port, output: () => output });
      }
      const token = Object.keys(tokens)[0]!;
      const user = tokens[token]!;
      const call = (replica: (typeof replicas)[number], path: string, init: RequestInit = {}) =>
        fetch(`http://127.0.0.1:${replica.port}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers } });
      for (const replica of replicas) {
        let ready = false;
        for (let attempt = 0; attempt < 300 && !ready; attempt++) {
          ready = await fetch(`http://127.0.0.1:${replica.port}/readyz`).then((response) => response.status === 200, () => false);
          if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(ready, replica.output()).toBe(true);
      }
      const created = (await (await call(replicas[0]!, `/apps/shop/users/${user}/sessions`, { method: "POST", body: JSON.stringify({ state: { tier: "gold" } }) })).json()) as { id: string };
      const read = (await (await call(replicas[1]!, `/apps/shop/users/${user}/sessions/${created.id}`)).json()) as { state: Record<string, unknown> };
      expect(read.state).toEqual({ tier: "gold" });
      expect((await fetch(`http://127.0.0.1:${replicas[1]!.port}/list-apps`)).status).toBe(401);
      for (const replica of replicas) replica.child.kill("SIGTERM");
      const codes = await Promise.all(replicas.map((replica) => new Promise((resolve) => (replica.child.exitCode !== null ? resolve(replica.child.exitCode) : replica.child.once("exit", resolve)))));
      expect(codes).toEqual([0, 0]);
    } finally {
      for (const replica of replicas) if (replica.child.exitCode === null) replica.child.kill("SIGKILL");
    }
  }, 120_000);
});

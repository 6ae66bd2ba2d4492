import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { startEmulator } from "@threadline/emulator";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { QueryEngine } from "../../../src/engine/query-engine.js";
import { AnthropicProvider } from "../../../src/provider/index.js";
import { PgSessionDatabase } from "../../../src/transcript/index.js";
import { postgresForTests } from "../../../support/postgres-cluster.js";
import { startFaultProxy, throughProxy } from "../../../support/tcp-fault-proxy.js";
import { makeTempDir } from "../../../support/temp-dir.js";

const postgres = await postgresForTests(afterAll);
const RESUME_CHILD = fileURLToPath(new URL("./fixtures/resume-child.ts", import.meta.url));

function capture() {
  let text = "";
  const write = (chunk: string) => {
    text += chunk;
    return true;
  };
  const stream = { write } as unknown as NodeJS.WritableStream;
  return { stream, text: () => text };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address !== null ? address.port : 1;
}

describe("a database that is not there at start", () => {
  it("is one line naming the server and the reason, fast (refused) or after the connect timeout (silent)", async () => {
    const port = await closedPort();
    await expect(PgSessionDatabase.connect(`postgres://someone:hunter2@127.0.0.1:${port}/db`)).rejects.toThrow(
      new RegExp(
        `^cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port}/db: connection refused \\(is the server running\\?\\)$`,
      ),
    );
    // A server that accepts and never answers: the connect timeout ends the wait.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const silentPort = (silent.address() as { port: number }).port;
    try {
      await expect(
        PgSessionDatabase.connect(`postgres://someone@127.0.0.1:${silentPort}/db`, { connectTimeoutMs: 1_000 }),
      ).rejects.toThrow(/^cannot connect to PostgreSQL at 127\.0\.0\.1:\d+\/db: no answer within 1 s$/);
    } finally {
      silent.close();
    }
    // The CLI: exit 1, one line on stderr, and never the password from the URL.
    const stdout = capture();
    const stderr = capture();
    const code = await main(["sessions"], {
      stdin: process.stdin,
      stdout: stdout.stream,
      stderr: stderr.stream,
      env: { THREADLINE_STORE: `postgresql://someone:hunter2@127.0.0.1:${port}/db` },
      cwd: "/work",
    });
    expect(code).toBe(1);
    expect(stderr.text()).toMatch(
      /^threadline: cannot connect to PostgreSQL at 127\.0\.0\.1:\d+\/db: connection refused/,
    );
    expect(stderr.text().trim().split("\n")).toHaveLength(1);
    expect(stderr.text()).not.toContain("hunter2");
  });
});

describe.skipIf(postgres === undefined)("PostgreSQL going away and coming back", () => {
  it("fails the turn before the model is called, keeps what was acknowledged, and carries on when it returns", async () => {
    const url = postgres!.url;
    const proxy = await startFaultProxy(Number(new URL(url).port));
    const emulator = await startEmulator({ scenario: ["First answer.", "Third answer."] });
    const workspace = await makeTempDir("pg-outage");
    const database = await PgSessionDatabase.connect(url);
    try {
      const engine = new QueryEngine({
        cwd: workspace,
        store: throughProxy(url, proxy),
        provider: new AnthropicProvider({
          baseURL: emulator.url,
          apiKey: "test-key-not-secret",
          sleep: async () => {},
        }),
      });
      for await (const _event of engine.submitMessage("first")) {
      }
      const acknowledged = (await database.loadSession(engine.sessionId))!.result.entries.length;
      expect(acknowledged).toBeGreaterThanOrEqual(2);
      const requestsBefore = emulator.requests.length;

      await proxy.cut();
      let failure: unknown;
      try {
        for await (const _event of engine.submitMessage("second, while the database is away")) {
        }
      } catch (error) {
        failure = error;
      }
      expect(String(failure)).toMatch(
        /transcript not saved: PostgreSQL at 127\.0\.0\.1:\d+\/\w+: connection (refused|lost|reset)/,
      );
      expect(String(failure)).toMatch(/entries of session .* saved by this process are kept, \d+ waiting are retried/);
      // Not one request went to the model without its entries being durable.
      expect(emulator.requests.length).toBe(requestsBefore);
      expect((await database.loadSession(engine.sessionId))!.result.entries).toHaveLength(acknowledged);

      await proxy.restore();
      const reasons: string[] = [];
      for await (const event of engine.submitMessage("third, after it came back")) {
        if (event.type === "turn_end") reasons.push(event.reason);
      }
      expect(reasons).toEqual(["completed"]);
      await engine.close();
      // Resume from a fresh process's point of view: everything, the queued second prompt included, in order.
      const resumed = await QueryEngine.resume(engine.sessionId, {
        cwd: workspace,
        store: url,
        provider: engine.provider,
      });
      const prompts = resumed.engine.timeline.entries.flatMap((entry) =>
        entry.type === "user" && typeof entry.message.content === "string" ? [entry.message.content] : [],
      );
      expect(prompts).toEqual(["first", "second, while the database is away", "third, after it came back"]);
      await resumed.engine.close();
    } finally {
      await database.close();
      await proxy.close();
      await emulator.close();
      await rm(workspace, { recursive: true, force: true });
    }
  });

  it("two processes resuming one session at once: exactly one wins, the other is told who holds it", async () => {
    const url = postgres!.url;
    const database = await PgSessionDatabase.connect(url);
    const sessionId = "aaaaaaaa-bbbb-4ccc-8ddd-000000000001";
    const store = await database.createSession({ sessionId, cwd: "/work", project: "race" });
    await store.close();
    await database.close();
    const children = [0, 1].map(() =>
      spawn(process.execPath, ["--import", "tsx", RESUME_CHILD, sessionId], {
        env: { ...process.env, THREADLINE_STORE: url, ANTHROPIC_API_KEY: "test-key-not-secret" },
        stdio: ["pipe", "pipe", "pipe"],
      }),
    );
    const firstLines = await Promise.all(
      children.map(
        (child) =>
          new Promise<string>((resolve) => {
            let text = "";
            child.stdout.on("data", (chunk: Buffer) => {
              text += chunk.toString("utf8");
              if (text.includes("\n")) resolve(text.split("\n")[0]!);
            });
            child.on("close", () => resolve(text.split("\n")[0] ?? ""));
          }),
      ),
    );
    for (const child of children) child.stdin.end();
    await Promise.all(children.map((child) => new Promise((resolve) => child.on("close", resolve))));
    const winners = firstLines.filter((line) => line.startsWith("WON "));
    const losers = firstLines.filter((line) => !line.startsWith("WON "));
    expect(winners, firstLines.join(" | ")).toHaveLength(1);
    const holder = winners[0]!.slice("WON ".length);
    expect(losers[0]).toMatch(
      new RegExp(
        `^threadline: session ${sessionId} is in use by ${holder.replace(/[.]/g, "\\.")}:[0-9a-f]{8} \\(lease renewed until `,
      ),
    );
  });
});

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { createAssistantEntry, createUserEntry, textBlock } from "../../src/messages/index.js";
import { JsonlTranscriptStore } from "../../src/transcript/index.js";
import { postgresForTests } from "../../support/postgres-cluster.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const postgres = await postgresForTests(afterAll);
const tempDir = useTempDirs();

async function run(argv: string[], env: NodeJS.ProcessEnv) {
  const out: Buffer[] = [];
  let err = "";
  const stdout = {
    write: (chunk: string | Buffer, callback?: () => void) => {
      out.push(Buffer.from(chunk));
      callback?.();
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  const stderr = {
    write: (chunk: string) => {
      err += chunk;
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  const code = await main(argv, { stdin: process.stdin, stdout, stderr, env, cwd: "/repo" });
  return { code, stdout: Buffer.concat(out), stderr: err };
}

/** A transcript with the characters JSONL framing must survive. */
async function writeSession(home: string, sessionId: string): Promise<string> {
  const store = await JsonlTranscriptStore.open({ sessionId, cwd: "/repo", home });
  const user = createUserEntry(
    { sessionId, parentUuid: null, uuid: `${sessionId}-u` },
    "line\u2028sep \u0000 é 😀 \ud800",
  );
  store.append(user);
  store.append(
    createAssistantEntry({ sessionId, parentUuid: user.uuid, uuid: `${sessionId}-a` }, textBlock("ok"), {
      messageId: "msg_1",
      model: "claude-sonnet-4-6",
    }),
  );
  await store.close();
  return store.path;
}

describe.skipIf(postgres === undefined)("threadline sessions, export and import", () => {
  it("file → PostgreSQL → file keeps every byte, and both stores list the session", async () => {
    const home = await tempDir();
    const sessionId = "0e0e0e0e-1111-4222-8333-444455556666";
    const path = await writeSession(home, sessionId);
    const original = await readFile(path);
    const pgEnv = { THREADLINE_HOME: home, THREADLINE_STORE: postgres!.url };

    const imported = await run(["import", path], pgEnv);
    expect(imported.stderr).toMatch(new RegExp(`session ${sessionId}: 2 records into PostgreSQL at 127\\.0\\.0\\.1`));
    expect(imported.code).toBe(0);
    const exported = await run(["export", sessionId], pgEnv);
    expect(exported.code).toBe(0);
    expect(exported.stdout.equals(original)).toBe(true);
    // Importing the same id again imports nothing, and says so.
    const again = await run(["import", path], pgEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists in the store; nothing imported/);

    const listed = await run(["sessions", "--project=-repo"], pgEnv);
    expect(listed.stdout.toString()).toMatch(new RegExp(`${sessionId}\\s+-repo\\s+\\S+\\s+2\\s+[\\d.]+ (B|kB)\\s+-`));

    // Back into a second file store: the same bytes again.
    const otherHome = await tempDir();
    const exportedFile = join(otherHome, "exported.jsonl");
    await writeFile(exportedFile, exported.stdout);
    const back = await run(["import", exportedFile], { THREADLINE_HOME: otherHome });
    expect(back.code).toBe(0);
    const fileExport = await run(["export", sessionId], { THREADLINE_HOME: otherHome });
    expect(fileExport.stdout.equals(original)).toBe(true);
    const fileList = await run(["sessions"], { THREADLINE_HOME: otherHome });
    expect(fileList.stdout.toString()).toMatch(new RegExp(`${sessionId}\\s+-repo\\s+\\S+\\s+2\\s+`));
  });

  it("a torn tail is named on stderr and the rest imported; inspect reads the stored session", async () => {
    const home = await tempDir();
    const sessionId = "0e0e0e0e-1111-4222-8333-777788889999";
    const path = await writeSession(home, sessionId);
    await writeFile(path, `${await readFile(path, "utf8")}{"type":"user","mess`);
    const env = { THREADLINE_HOME: home, THREADLINE_STORE: postgres!.url };
    const imported = await run(["import", path], env);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(/: line 4 skipped: torn final line \(no newline, not JSON\)\n/);
    expect(imported.stderr).toMatch(/2 records into .*; 1 lines skipped/);
    const inspected = await run(["inspect", "--json", sessionId], env);
    expect(inspected.code).toBe(0);
    expect(JSON.parse(inspected.stdout.toString())).toMatchObject({ records: 3 });
  });
});

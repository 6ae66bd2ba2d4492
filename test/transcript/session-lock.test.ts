/**
 * One writer per JSONL session (docs/EXACTLY-ONCE.md): real processes hold, are refused, die and are taken
 * over. Oracle: what the refused process prints, the holder's pid as the OS knows it, the files on disk.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createUserEntry } from "../../src/messages/index.js";
import { SessionManager } from "../../src/sessions/index.js";
import { JsonlTranscriptStore } from "../../src/transcript/index.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs();
const child = fileURLToPath(new URL("./lock-child.ts", import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const each of children.splice(0)) each.kill("SIGKILL");
});

function tryOpen(path: string): string {
  return spawnSync(process.execPath, ["--import", "tsx", child, path, "try"], { encoding: "utf8" }).stdout.trim();
}

/** Starts a child in `mode` and resolves once it holds the session. */
function holder(path: string, mode: "hold" | "kill"): Promise<ChildProcess> {
  const process_ = spawn(process.execPath, ["--import", "tsx", child, path, mode], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.push(process_);
  return new Promise((resolve, reject) => {
    process_.stdout?.on("data", (data: Buffer) => {
      if (data.toString().includes("held")) resolve(process_);
    });
    process_.on("error", reject);
  });
}

function exited(process_: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (process_.exitCode !== null || process_.signalCode !== null) resolve();
    else process_.on("exit", () => resolve());
  });
}

describe("one writer per session", () => {
  it("refuses a second process with a line naming the holder, and takes over once the holder is killed", async () => {
    const path = join(await tempDir(), "s.jsonl");
    const first = await holder(path, "hold");
    const refused = tryOpen(path);
    expect(refused).toContain(`in use by pid ${first.pid} on ${hostname()} since 20`);
    expect(refused.split("\n")).toHaveLength(1);
    // In this process too.
    await expect(JsonlTranscriptStore.open({ sessionId: "s", cwd: "/w", path, flushOnExit: false })).rejects.toThrow(
      `pid ${first.pid}`,
    );
    first.kill("SIGKILL");
    await exited(first);
    expect(existsSync(`${path}.lock`)).toBe(true); // stale: left by a killed process
    expect(tryOpen(path)).toBe("ok");
    expect(existsSync(`${path}.lock`)).toBe(false);
    // Both writers' entries are whole on disk, in order.
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line).uuid).filter(Boolean)).toHaveLength(2);
  });

  it("takes over the lock of a process that died holding it", async () => {
    const path = join(await tempDir(), "s.jsonl");
    const dead = await holder(path, "kill");
    await exited(dead);
    expect(JSON.parse(await readFile(`${path}.lock`, "utf8")).pid).toBe(dead.pid);
    const store = await JsonlTranscriptStore.open({ sessionId: "s", cwd: "/w", path, flushOnExit: false });
    expect(JSON.parse(await readFile(`${path}.lock`, "utf8")).pid).toBe(process.pid);
    await store.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("--fork-session branches a held session into a new id and file, leaving the original alone", async () => {
    const cwd = await tempDir();
    const home = await tempDir();
    const manager = new SessionManager({ cwd, home, env: {} });
    const created = await manager.create();
    created.transcript.append(createUserEntry({ sessionId: created.sessionId, parentUuid: null, uuid: "u-1" }, "hi"));
    await created.transcript.close();
    const path = manager.fileOf(created.sessionId);
    const before = await readFile(path, "utf8");
    const first = await holder(path, "hold");
    await expect(manager.open(created.sessionId)).rejects.toThrow(`pid ${first.pid}`);
    const fork = await manager.fork(created.sessionId);
    expect(fork.sessionId).not.toBe(created.sessionId);
    fork.transcript.append(createUserEntry({ sessionId: fork.sessionId, parentUuid: "u-1", uuid: "u-2" }, "more"));
    await fork.transcript.close();
    const forked = (await readFile(manager.fileOf(fork.sessionId), "utf8")).trimEnd().split("\n");
    // The fork starts from what a resume of the original sees now (the holder's entry is its latest branch).
    expect(forked.map((line) => JSON.parse(line).uuid).filter(Boolean)).toEqual([`from-${first.pid}`, "u-2"]);
    expect(forked.every((line) => JSON.parse(line).sessionId === fork.sessionId)).toBe(true);
    first.stdin?.end();
    await exited(first);
    // The original has its own entry and the holder's, nothing of the fork's.
    const original = await readFile(path, "utf8");
    expect(original.startsWith(before)).toBe(true);
    expect(original).not.toContain("u-2");
  });
});

/**
 * The session lock's take-over rules (src/transcript/session-lock.ts, docs/EXACTLY-ONCE.md "One writer"), as
 * Stryker mutates them (docs/MUTATION-TESTING.md). Oracles of their own: the lock files on disk, read back as
 * JSON; a real process that has exited (its pid dead as the OS knows it); file times set by this test; the
 * refusal line written out here in full. The race of two processes for one stale lock is played at its exact
 * moment: the `alive` question is asked after the stale holder was read and before it is removed, so the rival
 * writes its own lock right then, as a second process would.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionLock } from "../../src/transcript/session-lock.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs("session-lock");

/** The pid of a process that has run and exited: not alive on this host. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

function onDisk(path: string): { pid: number; host: string; since: string } {
  return JSON.parse(readFileSync(path, "utf8"));
}

function secondsAgo(path: string, seconds: number): void {
  const time = new Date(Date.now() - seconds * 1000);
  utimesSync(path, time, time);
}

const STALE = { pid: 0, host: hostname(), since: "2026-01-01T00:00:00.000Z" };

describe("the session lock", () => {
  it("a lock still held at exit is released by the process's exit, one taken and released is not touched", async () => {
    const dir = await tempDir();
    // First in the file and taken here too, so that Stryker's per-test coverage counts this test for the exit
    // listener's code (installed on the first lock a process takes) and runs it against those mutants.
    SessionLock.acquire(join(dir, "here.jsonl")).release();
    const script = [
      `import { SessionLock } from ${JSON.stringify(join(import.meta.dirname, "..", "..", "src", "transcript", "session-lock.ts"))};`,
      `SessionLock.acquire(${JSON.stringify(join(dir, "kept.jsonl"))});`,
      `SessionLock.acquire(${JSON.stringify(join(dir, "released.jsonl"))}).release();`,
      `const { writeFileSync } = await import("node:fs");`,
      `writeFileSync(${JSON.stringify(join(dir, "released.jsonl.lock"))}, "someone else's");`,
    ].join("\n");
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, ...activeMutant() },
    });
    expect(child.stderr).toBe("");
    expect(existsSync(join(dir, "kept.jsonl.lock"))).toBe(false);
    expect(readFileSync(join(dir, "released.jsonl.lock"), "utf8")).toBe("someone else's");
  });

  it("is a file beside the transcript naming this process, this host and when; release removes it", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    const before = Date.now();
    const lock = SessionLock.acquire(transcript);
    const held = onDisk(`${transcript}.lock`);
    expect(held.pid).toBe(process.pid);
    expect(held.host).toBe(hostname());
    expect(Date.parse(held.since)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(held.since)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(lock.path).toBe(`${transcript}.lock`);
    lock.release();
    expect(existsSync(`${transcript}.lock`)).toBe(false);
  });

  it("refuses while its holder lives, with one line naming the holder", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    const first = SessionLock.acquire(transcript);
    const held = onDisk(`${transcript}.lock`);
    expect(() => SessionLock.acquire(transcript)).toThrow(
      `Session ${transcript} is in use by pid ${process.pid} on ${hostname()} since ${held.since}; end that process, or branch it with --fork-session.`,
    );
    expect(onDisk(`${transcript}.lock`)).toEqual(held);
    first.release();
  });

  it("takes over the lock of a process that has exited on this host", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    const dead = { pid: deadPid(), host: hostname(), since: "2026-01-01T00:00:00.000Z" };
    writeFileSync(`${transcript}.lock`, JSON.stringify(dead));
    const lock = SessionLock.acquire(transcript);
    expect(onDisk(`${transcript}.lock`).pid).toBe(process.pid);
    expect(existsSync(`${transcript}.lock.takeover`)).toBe(false);
    lock.release();
  });

  it("never takes over a lock held on another host, whose pids it cannot see", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    const elsewhere = { pid: deadPid(), host: `not-${hostname()}`, since: "2026-01-01T00:00:00.000Z" };
    writeFileSync(`${transcript}.lock`, JSON.stringify(elsewhere));
    expect(() => SessionLock.acquire(transcript, () => false)).toThrow(
      `is in use by pid ${elsewhere.pid} on not-${hostname()} since 2026-01-01T00:00:00.000Z;`,
    );
    expect(onDisk(`${transcript}.lock`)).toEqual(elsewhere);
  });

  it("two racing for one stale lock cannot both win: the rival's fresh lock, written meanwhile, is left alone", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    writeFileSync(`${transcript}.lock`, JSON.stringify(STALE));
    const rival = { pid: 4_000_000, host: hostname(), since: "2026-06-01T00:00:00.000Z" };
    const alive = (pid: number): boolean => {
      // The rival won the take-over between our reading the stale holder and our removing it.
      if (pid === STALE.pid && onDisk(`${transcript}.lock`).pid === STALE.pid)
        writeFileSync(`${transcript}.lock`, JSON.stringify(rival));
      return pid === rival.pid;
    };
    expect(() => SessionLock.acquire(transcript, alive)).toThrow(`is in use by pid ${rival.pid} on ${hostname()}`);
    expect(onDisk(`${transcript}.lock`)).toEqual(rival);
  });

  it("a stale lock re-taken by its own pid later (a new since) is not removed either", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    writeFileSync(`${transcript}.lock`, JSON.stringify(STALE));
    const again = { ...STALE, since: "2026-06-01T00:00:00.000Z" };
    let asked = 0;
    const alive = (): boolean => {
      asked++;
      if (asked === 1) writeFileSync(`${transcript}.lock`, JSON.stringify(again));
      return asked > 1;
    };
    expect(() => SessionLock.acquire(transcript, alive)).toThrow("since 2026-06-01T00:00:00.000Z;");
    expect(onDisk(`${transcript}.lock`)).toEqual(again);
  });

  it("while another process's take-over guard is fresh, it waits its turn and removes nothing", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    writeFileSync(`${transcript}.lock`, JSON.stringify(STALE));
    writeFileSync(`${transcript}.lock.takeover`, "4000000");
    secondsAgo(`${transcript}.lock.takeover`, 8);
    let asked = 0;
    const alive = () => {
      asked++;
      return false;
    };
    expect(() => SessionLock.acquire(transcript, alive)).toThrow(
      `Session ${transcript} is being taken over by another process; try again.`,
    );
    // Three tries, then the refusal: not a fourth.
    expect(asked).toBe(3);
    expect(onDisk(`${transcript}.lock`)).toEqual(STALE);
    expect(readFileSync(`${transcript}.lock.takeover`, "utf8")).toBe("4000000");
  });

  it("a take-over guard left by a killed process (over 10 s old) is cleared, and the stale lock then taken", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    writeFileSync(`${transcript}.lock`, JSON.stringify(STALE));
    writeFileSync(`${transcript}.lock.takeover`, "4000000");
    secondsAgo(`${transcript}.lock.takeover`, 12);
    const lock = SessionLock.acquire(transcript, () => false);
    expect(onDisk(`${transcript}.lock`).pid).toBe(process.pid);
    expect(existsSync(`${transcript}.lock.takeover`)).toBe(false);
    lock.release();
  });

  it("an empty or malformed lock is someone writing it: left alone while young, removed once over 10 s old", async () => {
    const malformed = [
      "",
      "{",
      JSON.stringify({ ...STALE, pid: "0" }),
      JSON.stringify({ ...STALE, host: 1 }),
      JSON.stringify({ ...STALE, since: 1 }),
    ];
    for (const written of malformed) {
      const transcript = join(await tempDir(), "s.jsonl");
      writeFileSync(`${transcript}.lock`, written);
      secondsAgo(`${transcript}.lock`, 8);
      expect(() => SessionLock.acquire(transcript, () => false)).toThrow("is being taken over by another process");
      expect(readFileSync(`${transcript}.lock`, "utf8")).toBe(written);
      secondsAgo(`${transcript}.lock`, 12);
      const lock = SessionLock.acquire(transcript, () => false);
      expect(onDisk(`${transcript}.lock`).pid).toBe(process.pid);
      lock.release();
    }
  });

  it("release leaves a lock that is no longer its own (another pid, or the same pid taken again)", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    const lock = SessionLock.acquire(transcript);
    const ours = onDisk(`${transcript}.lock`);
    const other = { ...ours, pid: ours.pid + 1 };
    writeFileSync(`${transcript}.lock`, JSON.stringify(other));
    lock.release();
    expect(onDisk(`${transcript}.lock`)).toEqual(other);

    const second = join(await tempDir(), "t.jsonl");
    const lock2 = SessionLock.acquire(second);
    const renewed = { ...onDisk(`${second}.lock`), since: "2026-06-01T00:00:00.000Z" };
    writeFileSync(`${second}.lock`, JSON.stringify(renewed));
    lock2.release();
    expect(onDisk(`${second}.lock`)).toEqual(renewed);
  });

  it("release runs once: a lock taken again after it is not removed by a second release", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    const lock = SessionLock.acquire(transcript);
    lock.release();
    const next = SessionLock.acquire(transcript);
    // Same pid; a clock that did not move would make the two holders the same: the since is made to differ.
    writeFileSync(`${transcript}.lock`, JSON.stringify({ ...onDisk(`${transcript}.lock`), since: lock.holder.since }));
    lock.release();
    expect(existsSync(`${transcript}.lock`)).toBe(true);
    next.release();
  });

  it("two racing for one stale lock, the rival started in the same millisecond (same since, another pid): still one winner", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    writeFileSync(`${transcript}.lock`, JSON.stringify(STALE));
    const rival = { ...STALE, pid: 4_000_001 };
    const alive = (pid: number): boolean => {
      if (pid === STALE.pid && onDisk(`${transcript}.lock`).pid === STALE.pid)
        writeFileSync(`${transcript}.lock`, JSON.stringify(rival));
      return pid === rival.pid;
    };
    expect(() => SessionLock.acquire(transcript, alive)).toThrow(`is in use by pid ${rival.pid} on ${hostname()}`);
    expect(onDisk(`${transcript}.lock`)).toEqual(rival);
  });

  it("a stale lock released by the rival meanwhile (gone when it is checked) is simply taken", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    writeFileSync(`${transcript}.lock`, JSON.stringify(STALE));
    const alive = (): boolean => {
      rmSync(`${transcript}.lock`, { force: true });
      return false;
    };
    const lock = SessionLock.acquire(transcript, alive);
    expect(onDisk(`${transcript}.lock`).pid).toBe(process.pid);
    lock.release();
  });

  it("release does not fail when its lock file was removed by someone else", async () => {
    const transcript = join(await tempDir(), "s.jsonl");
    const lock = SessionLock.acquire(transcript);
    rmSync(`${transcript}.lock`);
    expect(() => lock.release()).not.toThrow();
    expect(existsSync(`${transcript}.lock`)).toBe(false);
  });

  it("a folder that does not exist is an error of its own, not a lock in use or being taken over", async () => {
    const transcript = join(await tempDir(), "no", "such", "s.jsonl");
    expect(() => SessionLock.acquire(transcript)).toThrow(/ENOENT/);
  });
});

/** Under Stryker, the mutant this test runs is passed on to a child process (which then runs it too). */
function activeMutant(): Record<string, string> {
  const active = (globalThis as { __stryker__?: { activeMutant?: string } }).__stryker__?.activeMutant;
  return active === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: active };
}

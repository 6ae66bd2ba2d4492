/**
 * Whole records (docs/EXACTLY-ONCE.md): an append is all or nothing on disk. A failed write is cut back and
 * retried whole, its error is reported once, and a torn tail left by a crash is closed off before the next
 * write. Oracle: the file's bytes, every line parsed with JSON.parse.
 */

import { writeSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createUserEntry, type TimelineEntry } from "../../src/messages/index.js";
import { JsonlTranscriptStore, loadSessionFile, type WriteFunction } from "../../src/transcript/index.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs();

function entry(index: number, parentUuid: string | null): TimelineEntry {
  return createUserEntry({ sessionId: "s", parentUuid, uuid: `u-${index}` }, `message ${index} ${"x".repeat(200)}`);
}

/** A disk that is full while `full` holds: it takes `room` bytes of a write, then fails with ENOSPC. */
function flakyDisk(): { write: WriteFunction; full: boolean; room: number } {
  const disk = {
    full: false,
    room: 37,
    write: (fd: number, buffer: Buffer, offset: number, length: number): number => {
      if (!disk.full) return writeSync(fd, buffer, offset, length);
      if (disk.room > 0) {
        const taken = writeSync(fd, buffer, offset, Math.min(disk.room, length));
        disk.room -= taken;
        return taken;
      }
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    },
  };
  return disk;
}

async function linesOf(path: string): Promise<string[]> {
  const text = await readFile(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text.slice(0, -1).split("\n");
}

describe("an append is all or nothing", () => {
  it("cuts back a torn write, retries it whole, and reports the error once", async () => {
    const path = join(await tempDir(), "s.jsonl");
    const disk = flakyDisk();
    const store = await JsonlTranscriptStore.open({
      sessionId: "s",
      cwd: "/w",
      path,
      flushOnExit: false,
      writeSync: disk.write,
    });
    store.append(entry(1, null));
    disk.full = true;
    store.append(entry(2, "u-1")); // 37 bytes land, then ENOSPC: cut back, kept queued
    // The file holds whole lines only while the disk is full.
    expect((await linesOf(path)).map((line) => JSON.parse(line).uuid)).toEqual([undefined, "u-1"]);
    await expect(store.flush()).rejects.toThrow(/ENOSPC/);
    // Reported once: a second flush with the disk still full reports the new failure, not a stale one twice.
    disk.full = false;
    await expect(store.flush()).resolves.toBeUndefined();
    await expect(store.flush()).resolves.toBeUndefined();
    store.append(entry(3, "u-2"));
    await store.close();
    const uuids = (await linesOf(path)).map((line) => JSON.parse(line).uuid);
    expect(uuids).toEqual([undefined, "u-1", "u-2", "u-3"]);
  });

  it("a write that fails in the background and is mended by the next flush is not reported afterwards", async () => {
    const path = join(await tempDir(), "s.jsonl");
    const disk = flakyDisk();
    const store = await JsonlTranscriptStore.open({
      sessionId: "s",
      cwd: "/w",
      path,
      flushOnExit: false,
      writeSync: disk.write,
    });
    disk.full = true;
    store.append(entry(1, null));
    disk.full = false;
    await expect(store.flush()).resolves.toBeUndefined();
    await store.close();
    expect((await linesOf(path)).map((line) => JSON.parse(line).uuid)).toEqual([undefined, "u-1"]);
  });

  it("a process that dies while the disk is full leaves whole lines; a resume loses only what never fitted", async () => {
    const path = join(await tempDir(), "s.jsonl");
    const disk = flakyDisk();
    const store = await JsonlTranscriptStore.open({
      sessionId: "s",
      cwd: "/w",
      path,
      flushOnExit: false,
      writeSync: disk.write,
    });
    store.append(entry(1, null));
    store.append(entry(2, "u-1"));
    disk.full = true;
    store.append(entry(3, "u-2"));
    // No close: the process is gone. A new process loads the file.
    const loaded = await loadSessionFile(path);
    expect(loaded.problems).toEqual([]);
    expect(loaded.entries.map((item) => ("uuid" in item ? item.uuid : undefined))).toEqual(["u-1", "u-2"]);
  });
});

describe("a torn tail on disk", () => {
  it("is closed off and reported before the next write; the next entry parses", async () => {
    const path = join(await tempDir(), "s.jsonl");
    const first = await JsonlTranscriptStore.open({ sessionId: "s", cwd: "/w", path, flushOnExit: false });
    first.append(entry(1, null));
    await first.close();
    const whole = await readFile(path, "utf8");
    await writeFile(path, `${whole}{"type":"user","uuid":"u-torn","mess`);
    const second = await JsonlTranscriptStore.open({ sessionId: "s", cwd: "/w", path, flushOnExit: false });
    expect(second.repairs).toHaveLength(1);
    expect(second.repairs[0]).toMatch(/torn/);
    second.append(entry(2, "u-1"));
    await second.close();
    const lines = await linesOf(path);
    expect(lines.at(-2)).toBe('{"type":"user","uuid":"u-torn","mess');
    expect(JSON.parse(lines.at(-1) ?? "").uuid).toBe("u-2");
    const loaded = await loadSessionFile(path);
    expect(loaded.entries.map((item) => ("uuid" in item ? item.uuid : undefined))).toEqual(["u-1", "u-2"]);
    expect(loaded.problems).toHaveLength(1);
  });
});

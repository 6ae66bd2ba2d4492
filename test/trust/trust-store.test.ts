/**
 * The trust record itself (src/trust/trust-store.ts, docs/TRUST.md), unit by unit, as Stryker mutates it
 * (docs/MUTATION-TESTING.md). Oracles of their own: real folders and symlinks on disk, the record file read
 * back as JSON, literal paths and times, the file's mode as the OS reports it.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isFolderTrusted, trustFolder } from "../../src/trust/trust-store.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs("trust-store");

/** A real (symlink-free) base folder with a home and a workspace made inside it. */
async function layout(): Promise<{ base: string; home: string }> {
  const base = realpathSync(await tempDir());
  const home = join(base, "home");
  return { base, home };
}

function record(home: string): Record<string, { trustedAt: string }> {
  return JSON.parse(readFileSync(join(home, "trusted-folders.json"), "utf8")).folders;
}

describe("the trust record", () => {
  it("a symlink inside a trusted folder that points outside it does not borrow its trust", async () => {
    const { base, home } = await layout();
    mkdirSync(join(base, "trusted"));
    mkdirSync(join(base, "outside"));
    symlinkSync(join(base, "outside"), join(base, "trusted", "link"));
    trustFolder(join(base, "trusted"), home);
    expect(isFolderTrusted(join(base, "trusted", "link"), home)).toBe(false);
    expect(isFolderTrusted(join(base, "outside"), home)).toBe(false);
    expect(isFolderTrusted(join(base, "trusted"), home)).toBe(true);
  });

  it("trusting through a symlink records the folder it points to, so the real folder is trusted", async () => {
    const { base, home } = await layout();
    mkdirSync(join(base, "real"));
    symlinkSync(join(base, "real"), join(base, "alias"));
    trustFolder(join(base, "alias"), home);
    expect(Object.keys(record(home))).toEqual([join(base, "real")]);
    expect(isFolderTrusted(join(base, "real"), home)).toBe(true);
    expect(isFolderTrusted(join(base, "alias"), home)).toBe(true);
  });

  it("a folder below a trusted one is trusted, a folder above it or beside it with the same prefix is not", async () => {
    const { base, home } = await layout();
    mkdirSync(join(base, "work", "deep", "er"), { recursive: true });
    mkdirSync(join(base, "work-other"));
    trustFolder(join(base, "work"), home);
    expect(isFolderTrusted(join(base, "work", "deep", "er"), home)).toBe(true);
    expect(isFolderTrusted(join(base, "work", "not-made-yet"), home)).toBe(true);
    expect(isFolderTrusted(join(base, "work-other"), home)).toBe(false);
    expect(isFolderTrusted(base, home)).toBe(false);
    expect(isFolderTrusted("/", home)).toBe(false);
  });

  it("a folder that does not exist yet is recorded by its absolute path", async () => {
    const { base, home } = await layout();
    trustFolder(join(base, "later", "..", "later"), home);
    expect(Object.keys(record(home))).toEqual([join(base, "later")]);
    mkdirSync(join(base, "later"));
    expect(isFolderTrusted(join(base, "later"), home)).toBe(true);
  });

  it("writes the record whole: every folder kept, the given time, two-space JSON with a final newline, mode 600", async () => {
    const { base, home } = await layout();
    mkdirSync(join(base, "a"));
    mkdirSync(join(base, "b"));
    trustFolder(join(base, "a"), home, new Date("2026-01-02T03:04:05.000Z"));
    trustFolder(join(base, "b"), home, new Date("2026-02-03T04:05:06.000Z"));
    const text = readFileSync(join(home, "trusted-folders.json"), "utf8");
    const folders = {
      [join(base, "a")]: { trustedAt: "2026-01-02T03:04:05.000Z" },
      [join(base, "b")]: { trustedAt: "2026-02-03T04:05:06.000Z" },
    };
    expect(text).toBe(`${JSON.stringify({ folders }, null, 2)}\n`);
    expect(statSync(join(home, "trusted-folders.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(home)).toEqual(["trusted-folders.json"]);
  });

  it("makes threadline's home when it is missing", async () => {
    const { base } = await layout();
    const home = join(base, "not", "there");
    trustFolder(base, home);
    expect(isFolderTrusted(base, home)).toBe(true);
  });

  it("fails closed on a record that is missing, not JSON, or holds no folder object", async () => {
    const { base, home } = await layout();
    expect(isFolderTrusted(base, home)).toBe(false);
    mkdirSync(home);
    for (const bad of ["{not json", "null", '{"folders":null}', `{"folders":[${JSON.stringify(base)}]}`, '"x"']) {
      writeFileSync(join(home, "trusted-folders.json"), bad);
      expect(isFolderTrusted(base, home)).toBe(false);
    }
  });

  it("starts a fresh record over a damaged one instead of failing", async () => {
    const { base, home } = await layout();
    mkdirSync(home);
    writeFileSync(join(home, "trusted-folders.json"), `{"folders":[${JSON.stringify(base)}]}`);
    trustFolder(base, home, new Date("2026-01-02T03:04:05.000Z"));
    expect(record(home)).toEqual({ [base]: { trustedAt: "2026-01-02T03:04:05.000Z" } });
  });

  it("keeps the trust of folders recorded before", async () => {
    const { base, home } = await layout();
    mkdirSync(home);
    writeFileSync(
      join(home, "trusted-folders.json"),
      JSON.stringify({ folders: { "/earlier/project": { trustedAt: "2025-05-05T00:00:00.000Z" } } }),
    );
    expect(isFolderTrusted("/earlier/project/src", home)).toBe(true);
    trustFolder(base, home, new Date("2026-01-02T03:04:05.000Z"));
    expect(record(home)["/earlier/project"]).toEqual({ trustedAt: "2025-05-05T00:00:00.000Z" });
  });
});

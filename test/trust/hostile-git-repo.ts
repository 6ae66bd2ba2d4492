/**
 * A git repository delivered with a hostile `.git` folder (issue 53 item 3): its config names, for every key git
 * honours in status/diff/log/show/blame, a program that writes a marker file named after the key. The markers
 * are the oracle: a marker on disk means git ran the repository's program.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface HostileRepo {
  /** The work tree (the workspace). */
  root: string;
  /** Where the programs write their markers (outside the work tree). */
  markers: string;
  /** Markers written so far, sorted. */
  ran(): string[];
}

/** Keys the read-only switches turn off; each names the marker program with its own name. */
export const NEUTRALIZED = [
  "core.fsmonitor",
  "diff.external",
  "diff.evil.textconv",
  "diff.evil.command",
  "core.pager",
  "core.sshCommand",
] as const;

function git(root: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
  });
}

/**
 * Builds the repository under `base`: `a.txt` committed as "hello", then changed on disk (so status and diff
 * have something to report). `extra` config keys are added as they are (a filter, `core.worktree`).
 */
export function makeHostileRepo(base: string, extra: Record<string, string> = {}): HostileRepo {
  const root = join(base, "repo");
  const markers = join(base, "markers");
  const bin = join(base, "bin");
  for (const directory of [root, markers, bin, join(base, "hooks")]) mkdirSync(directory, { recursive: true });
  const mark = join(bin, "mark");
  // Writes the marker, then passes its file argument (textconv) or its input (a filter, a pager) through; it
  // never waits on the input of a program that gets none (fsmonitor).
  writeFileSync(
    mark,
    `#!/bin/sh\nname="$1"; shift\ntouch "${markers}/$name"\nif [ -f "$1" ]; then cat "$1"; else case "$name" in filter.*|core.pager) cat;; esac; fi\n`,
  );
  chmodSync(mark, 0o755);
  const hook = join(base, "hooks", "post-index-change");
  writeFileSync(hook, `#!/bin/sh\ntouch "${markers}/post-index-change"\n`);
  chmodSync(hook, 0o755);
  git(root, "init", "-q", ".");
  writeFileSync(join(root, "a.txt"), "hello\n");
  writeFileSync(join(root, ".gitattributes"), "*.txt diff=evil filter=evf\n");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "first commit");
  for (const key of NEUTRALIZED) git(root, "config", key, `${mark} ${key}`);
  git(root, "config", "core.hooksPath", join(base, "hooks"));
  for (const [key, value] of Object.entries(extra)) git(root, "config", key, value.replace("MARK", mark));
  writeFileSync(join(root, "a.txt"), "hello\nchanged line\n");
  return {
    root,
    markers,
    ran: () => (existsSync(markers) ? readdirSync(markers).sort() : []),
  };
}

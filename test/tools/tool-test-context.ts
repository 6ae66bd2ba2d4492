/** Shared helpers for the tool tests: real temp workspaces and contexts. */
import { readFile, realpath, rm } from "node:fs/promises";
import type { PermissionPolicy } from "../../src/tools/permissions/permissions.js";
import type { ToolContext } from "../../src/tools/types.js";
import { makeTempDir } from "../../support/temp-dir.js";

/** A fresh temp directory (realpath'd, since macOS-style /tmp symlinks would confuse path assertions). */
export async function makeTempDirectory(purpose = "tools"): Promise<string> {
  return realpath(await makeTempDir(purpose));
}

export async function removeDirectory(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true });
}

export function makeContext(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    cwd,
    additionalDirectories: [],
    signal: new AbortController().signal,
    toolUseId: "toolu_test",
    onProgress: () => {},
    ...overrides,
  };
}

export const BYPASS: PermissionPolicy = { mode: "bypassPermissions", allow: [], deny: [] };

/** Text of a ToolOutput's content. */
export function outputText(content: unknown): string {
  if (typeof content === "string") return content;
  throw new Error(`expected text content, got ${JSON.stringify(content).slice(0, 200)}`);
}

/** Whether a process exists and is not a zombie (a zombie has exited; it only waits to be reaped). */
export async function isProcessAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/**
 * Which folders the user has trusted, kept in threadline's home (`trusted-folders.json`), as Claude Code keeps
 * `hasTrustDialogAccepted` per project in `~/.claude.json`. A folder is trusted when it or a folder above it
 * was trusted (docs/TRUST.md). Paths are stored resolved through symlinks, so a link cannot borrow trust.
 */
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The file under threadline's home. */
export const TRUST_FILE = "trusted-folders.json";

interface TrustDocument {
  folders: Record<string, { trustedAt: string }>;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function readDocument(home: string): TrustDocument {
  try {
    const data = JSON.parse(readFileSync(join(home, TRUST_FILE), "utf8")) as unknown;
    // Stryker disable next-line OptionalChaining: `null.folders` throws inside this try, which fails closed the same way
    const folders = (data as { folders?: unknown } | null)?.folders;
    if (typeof folders === "object" && folders !== null && !Array.isArray(folders))
      return { folders: folders as TrustDocument["folders"] };
  } catch {
    // Missing or unreadable: nothing is trusted (fail closed).
  }
  return { folders: {} };
}

/** Whether `folder` (or a folder above it) is trusted in `home`'s record. */
export function isFolderTrusted(folder: string, home: string): boolean {
  const { folders } = readDocument(home);
  let current = realOr(folder);
  for (;;) {
    if (Object.hasOwn(folders, current)) return true;
    const parent = dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

/** Records `folder` as trusted (written whole to a temporary file, then renamed). */
export function trustFolder(folder: string, home: string, now: Date = new Date()): void {
  const document = readDocument(home);
  document.folders[realOr(folder)] = { trustedAt: now.toISOString() };
  mkdirSync(home, { recursive: true });
  const path = join(home, TRUST_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

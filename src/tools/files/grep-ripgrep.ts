/** Grep through ripgrep (`rg`), when it is on PATH. */
import { execFile } from "node:child_process";
import { access, constants } from "node:fs/promises";
import path from "node:path";
import { checkNever } from "../../messages/index.js";
import { processSecretEnvironment } from "../shell/secret-env.js";
import type { GrepQuery, GrepResult } from "./grep-search.js";

/** Largest rg output read; beyond it the search is reported as too broad. */
const MAX_RIPGREP_OUTPUT_BYTES = 64 * 1024 * 1024;

let cachedLookup: { pathVariable: string; found: string | undefined } | undefined;

/** The absolute path of `rg` on PATH, or undefined (cached per PATH value). */
export async function findRipgrep(): Promise<string | undefined> {
  const pathVariable = process.env.PATH ?? "";
  if (cachedLookup?.pathVariable === pathVariable) return cachedLookup.found;
  let found: string | undefined;
  for (const directory of pathVariable.split(path.delimiter)) {
    if (directory === "") continue;
    const candidate = path.join(directory, "rg");
    try {
      await access(candidate, constants.X_OK);
      found = candidate;
      break;
    } catch {
      // Not here; keep looking.
    }
  }
  cachedLookup = { pathVariable, found };
  return found;
}

function ripgrepArguments(query: GrepQuery): string[] {
  const args = ["--hidden", "--glob", "!.git", "--glob", "!node_modules", "--no-messages", "--color", "never"];
  args.push("--sort", "path", "--no-heading", "--with-filename");
  if (query.caseInsensitive) args.push("-i");
  if (query.multiline) args.push("-U", "--multiline-dotall");
  if (query.glob !== undefined && query.glob !== "") args.push("--glob", query.glob);
  if (query.type !== undefined && query.type !== "") args.push("--type", query.type);
  switch (query.outputMode) {
    case "files_with_matches":
      args.push("-l");
      break;
    case "count":
      args.push("-c");
      break;
    case "content":
      args.push(query.lineNumbers ? "-n" : "-N");
      if (query.before > 0) args.push("-B", String(query.before));
      if (query.after > 0) args.push("-A", String(query.after));
      break;
    default:
      checkNever(query.outputMode);
  }
  args.push("-e", query.pattern, "--", query.path);
  return args;
}

/** Runs `query` with the rg binary at `ripgrep`. */
export function grepWithRipgrep(ripgrep: string, query: GrepQuery): Promise<GrepResult> {
  return new Promise((resolve) => {
    execFile(
      ripgrep,
      ripgrepArguments(query),
      {
        maxBuffer: MAX_RIPGREP_OUTPUT_BYTES,
        signal: query.signal,
        encoding: "utf8",
        env: { ...(query.env ?? processSecretEnvironment().toolEnv) },
      },
      (error, stdout, stderr) => {
        const lines = stdout.split("\n").filter((line) => line.length > 0);
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : undefined;
        // rg: 0 = matches, 1 = none, 2 = an error (possibly after some matches).
        if (exitCode === 0 || exitCode === 1 || (exitCode === 2 && lines.length > 0)) {
          resolve({ kind: "lines", lines });
          return;
        }
        const reason = stderr.trim() || error?.message || "unknown error";
        resolve({ kind: "error", message: `ripgrep failed: ${reason}` });
      },
    );
  });
}

/** The package version, for `--version` and the interactive banner. */
import { readFileSync } from "node:fs";

/** Reads `version` from the package.json two levels above this file (`dist/cli/` or `src/cli/`). */
export function packageVersion(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    const parsed = JSON.parse(text) as { version?: unknown };
    return typeof parsed.version === "string" ? parsed.version : "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * `statusLine` and `outputStyle` from a settings file (docs/SETTINGS.md). `statusLine` is Claude Code's
 * `{"type": "command", "command": "…", "padding": N}` (https://code.claude.com/docs/en/statusline): a command the
 * interactive terminal runs for its status line, so it is project code like a hook and waits for a trusted folder
 * (project-code.ts). `outputStyle` names a style (https://code.claude.com/docs/en/output-styles); the memory
 * loader finds it (memory/output-styles.ts).
 */
import { describeType } from "./parse-hooks.js";
import type { Settings, StatusLineSetting } from "./settings-types.js";

/** Keys of `statusLine` Claude Code has that threadline reads without acting on (named once). */
const STATUS_LINE_NOT_ACTED_ON: readonly string[] = ["refreshInterval", "hideVimModeIndicator"];

export function readStatusLine(
  value: unknown,
  settings: Settings,
  source: string,
  add: (key: string, message: string) => void,
): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    add(
      "statusLine",
      `must be an object like {"type": "command", "command": "…"}, got ${describeType(value)}; ignored`,
    );
    return;
  }
  const record = value as Record<string, unknown>;
  if (record.type !== "command") {
    add("statusLine.type", `${JSON.stringify(record.type) ?? "nothing"} is not "command"; no status line command`);
    return;
  }
  if (typeof record.command !== "string" || record.command.trim() === "") {
    const got = record.command === undefined ? "nothing" : describeType(record.command);
    add("statusLine.command", `must be a command, got ${got}; no status line command`);
    return;
  }
  let padding = 0;
  if (record.padding !== undefined) {
    if (typeof record.padding === "number" && Number.isFinite(record.padding) && record.padding >= 0)
      padding = Math.floor(record.padding);
    else add("statusLine.padding", `must be a number of columns, got ${describeType(record.padding)}; 0 used`);
  }
  for (const key of Object.keys(record)) {
    if (key === "type" || key === "command" || key === "padding") continue;
    add(
      `statusLine.${key}`,
      STATUS_LINE_NOT_ACTED_ON.includes(key)
        ? "not acted on by threadline; ignored"
        : "is not a statusLine key; ignored",
    );
  }
  const setting: StatusLineSetting = { command: record.command, padding, source };
  settings.statusLine = setting;
}

export function readOutputStyle(value: unknown, settings: Settings, add: (key: string, message: string) => void): void {
  if (typeof value === "string" && value.trim() !== "") settings.outputStyle = value.trim();
  else add("outputStyle", `must be the name of an output style, got ${describeType(value)}; ignored`);
}

/** The lines the terminal opens a session with: version, model, folder, session id, and the sandbox's notice. */
import type { QueryEngine } from "../../engine/query-engine.js";
import { sandboxNotice } from "../../tools/index.js";
import type { Style } from "../terminal/style.js";
import { packageVersion } from "../version.js";

export function bannerLines(engine: QueryEngine, style: Style): string[] {
  const count = engine.timeline.entries.length;
  const resumed = count > 0 ? ` · resumed (${count} entries)` : "";
  const lines = [
    style.bold(`threadline ${packageVersion()}`) + style.dim(` · ${engine.model} · ${engine.cwd}${resumed}`),
    style.dim(`Session ${engine.sessionId} · /help for commands · Ctrl-C interrupts`),
  ];
  const notice = sandboxNotice(engine.sandbox);
  if (notice !== undefined) lines.push(style.warning(notice));
  return lines;
}

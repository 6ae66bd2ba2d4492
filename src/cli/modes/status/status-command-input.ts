/**
 * The JSON a `statusLine` command reads on stdin, in Claude Code's shape (https://code.claude.com/docs/en/statusline,
 * "Available data"): session_id, transcript_path, cwd, model {id, display_name}, workspace {current_dir,
 * project_dir}, version, output_style {name}, cost {…}, context_window {…}. A pure function of what the REPL knows;
 * the fields threadline cannot fill as Claude Code does are named in docs/CLAUDE-CODE-KEYS.md.
 */
import type { Usage } from "../../../messages/index.js";
import type { SessionStats } from "./status-line.js";

/** What the REPL knows when the command runs. */
export interface StatusCommandFacts {
  sessionId: string;
  transcriptPath: string | undefined;
  cwd: string;
  /** Where threadline was started (Claude Code's project directory). */
  projectDir: string;
  model: string;
  /** threadline's version (Claude Code sends its own). */
  version: string;
  outputStyle: string;
  stats: SessionStats;
  /** Milliseconds since the session was opened. */
  sessionMillis: number;
  /** The last response's usage; undefined before the first. */
  lastUsage: Usage | undefined;
}

/** `claude-opus-4-1-20250805` → `Opus 4.1`, `claude-3-5-sonnet-20241022` → `Sonnet 3.5`; anything else as it is. */
export function modelDisplayName(model: string): string {
  const parts = model
    .replace(/^claude-/, "")
    .replace(/-\d{8}$/, "")
    .split("-");
  const family = parts.find((part) => /^[a-z]+$/i.test(part));
  const version = parts.filter((part) => /^\d+$/.test(part));
  if (family === undefined || version.length === 0 || !model.startsWith("claude-")) return model;
  return `${family[0]!.toUpperCase()}${family.slice(1)} ${version.join(".")}`;
}

/** The object to send, as Claude Code names its fields. */
export function statusCommandInput(facts: StatusCommandFacts): Record<string, unknown> {
  const { stats } = facts;
  const totals = stats.totals;
  const used =
    stats.contextWindow > 0 ? Math.min(100, Math.round((100 * stats.contextTokens) / stats.contextWindow)) : 0;
  const usage = facts.lastUsage;
  return {
    hook_event_name: "Status",
    session_id: facts.sessionId,
    transcript_path: facts.transcriptPath ?? "",
    cwd: facts.cwd,
    model: { id: facts.model, display_name: modelDisplayName(facts.model) },
    workspace: { current_dir: facts.cwd, project_dir: facts.projectDir },
    version: facts.version,
    output_style: { name: facts.outputStyle },
    cost: {
      total_cost_usd: totals.costUsd,
      total_duration_ms: facts.sessionMillis,
      // threadline times whole turns, not API calls apart: the time in turns stands in for it.
      total_api_duration_ms: stats.turnMillis,
      total_lines_added: 0,
      total_lines_removed: 0,
    },
    context_window: {
      total_input_tokens: totals.inputTokens + totals.cacheReadInputTokens + totals.cacheCreationInputTokens,
      total_output_tokens: totals.outputTokens,
      context_window_size: stats.contextWindow,
      used_percentage: used,
      remaining_percentage: 100 - used,
      current_usage:
        usage === undefined
          ? null
          : {
              input_tokens: usage.input_tokens,
              output_tokens: usage.output_tokens,
              cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
              cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
            },
    },
  };
}

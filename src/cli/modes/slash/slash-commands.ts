/**
 * Slash commands of the interactive mode: /help /cost /context /cache /compact /clear /resume /memory
 * /output-style /plugin /exit,
 * and the user's custom commands (listed in /help, run by the REPL as a turn: `customCommandPrompt`).
 * Each command talks to the REPL through `ReplHost`, so this file holds no terminal state.
 */
import { formatCacheReport } from "../../../cache/index.js";
import type { QueryEngine } from "../../../engine/query-engine.js";
import type { EngineEvent } from "../../../loop/events.js";
import { type CustomCommand, formatMemoryListing, loadedMemoryFiles } from "../../../memory/index.js";
import type { PluginSet } from "../../../plugins/index.js";
import { listSessions } from "../../../transcript/index.js";
import { closestMatch } from "../../did-you-mean.js";
import { formatCostReport, type SessionStats } from "../status/status-line.js";
import { contextReportInput, estimateNextRequest, formatContextReport, tierActivity } from "./context-report.js";
import { type OutputStyleHost, outputStyleCommand } from "./output-style-command.js";
import { pluginCommand } from "./plugin-command.js";
import { rewindCommand } from "./rewind-command.js";

/** What a slash command may do to the REPL. */
export interface ReplHost {
  readonly engine: QueryEngine;
  readonly stats: SessionStats;
  print(text: string): void;
  /** Renders engine events (used by /compact). */
  render(event: EngineEvent): void;
  /** Asks a question on the prompt line; null at end of input. */
  ask(prompt: string): Promise<string | null>;
  /** Closes the current session and starts a new one. */
  clearSession(): Promise<void>;
  /** Closes the current session and resumes another (id or transcript path). */
  switchToSession(sessionIdOrPath: string): Promise<void>;
  /** The transcript home, when overridden. */
  readonly home: string | undefined;
  /** Clears the terminal (a no-op without one). */
  clearScreen(): void;
  /** `/mcp`: each MCP server's state, tools and last error. */
  mcpStatus(): string;
  /** The user's, the project's and the plugins' custom commands and skills (listed in /help). Default none. */
  readonly customCommands?: readonly CustomCommand[];
  /** The run's plugins (`/plugin`). Default none. */
  readonly plugins?: PluginSet | undefined;
  /** The output styles and the session's (`/output-style`). Default none. */
  readonly outputStyle?: OutputStyleHost;
}

export type SlashOutcome = "continue" | "exit";

interface SlashCommand {
  name: string;
  aliases?: string[];
  summary: string;
  run(host: ReplHost, argument: string): Promise<SlashOutcome | undefined> | SlashOutcome | undefined;
}

/** Most sessions /resume lists. */
export const DEFAULT_RESUME_LIST_LENGTH = 10;

/** A manual-compaction entry point, when the engine offers one. */
const COMMANDS: SlashCommand[] = [
  { name: "help", summary: "Show the commands", run: (host) => void host.print(helpText(host.customCommands ?? [])) },
  { name: "exit", aliases: ["quit"], summary: "Leave threadline", run: () => "exit" },
  {
    name: "rewind",
    aliases: ["checkpoint"],
    summary: "Go back to an earlier prompt: conversation, code or both (Esc twice)",
    run: (host, argument) => rewindCommand(host, argument),
  },
  {
    name: "cost",
    summary: "Tokens, cache hits and cost of this session",
    run: (host) => void host.print(formatCostReport(host.stats)),
  },
  {
    name: "context",
    summary: "What the next request holds, by part and compaction tier",
    run: (host) => void host.print(formatContextReport(contextReportInput(host.engine))),
  },
  {
    name: "mcp",
    summary: "MCP servers: state, tools and last error",
    run: (host) => void host.print(host.mcpStatus()),
  },
  {
    name: "cache",
    summary: "Prompt-cache hits and breaks",
    run: (host) => void host.print(formatCacheReport(host.engine.cacheDetector.stats())),
  },
  { name: "compact", summary: "Summarise the conversation now (optional focus instructions)", run: compact },
  {
    name: "clear",
    summary: "Clear the screen and start a new session (the old one stays on disk)",
    run: async (host) => {
      await host.clearSession();
      host.clearScreen();
      host.print(`Started a new session ${host.engine.sessionId}.`);
      return undefined;
    },
  },
  { name: "resume", summary: "Resume an earlier session of this directory", run: resume },
  {
    name: "plugin",
    aliases: ["plugins"],
    summary: "Plugins: list; enable or disable one (from the next start)",
    run: async (host, argument) => void host.print(await pluginCommand(host.plugins, host.engine.cwd, argument)),
  },
  {
    name: "output-style",
    summary: "Output styles: list; choose one (from /clear or the next session)",
    run: async (host, argument) =>
      void host.print(
        host.outputStyle === undefined
          ? "No output styles here."
          : await outputStyleCommand(host.outputStyle, host.engine.cwd, argument),
      ),
  },
  {
    name: "memory",
    summary: "Memory files loaded (CLAUDE.md, AGENTS.md, nested) and their size",
    run: (host) =>
      void host.print(
        formatMemoryListing(loadedMemoryFiles(host.engine.timeline.entries), host.engine.memoryFiles !== undefined),
      ),
  },
];

function helpText(custom: readonly CustomCommand[]): string {
  const lines = COMMANDS.map((command) => {
    const aliases = command.aliases ? ` (/${command.aliases.join(", /")})` : "";
    return `  /${`${command.name}${aliases}`.padEnd(18)} ${command.summary}`;
  });
  const customLines = custom
    .filter((command) => !isBuiltinCommand(command.name))
    .map((command) => {
      const hint = command.argumentHint !== undefined ? ` ${command.argumentHint}` : "";
      return `  /${`${command.name}${hint}`.padEnd(18)} ${command.description} (${command.scope})`;
    });
  const customPart = customLines.length > 0 ? ["Custom commands and skills:", ...customLines] : [];
  return [
    "Commands:",
    ...lines,
    ...customPart,
    "Keys:",
    "  Esc or Ctrl-C      interrupt the turn (at a permission question: stop it, nothing runs)",
    "  Esc twice          /rewind (at an empty prompt, between turns)",
    "  Ctrl-C twice       exit (at an empty prompt)",
    '  Ctrl-O             show the calls behind the last grouped line ("Read 3 files")',
    "  Alt-Enter, Shift-Enter, Ctrl-J or \\ then Enter   a new line in the prompt (a paste stays one prompt)",
    "  Up / Down          earlier prompts; Enter during a turn queues the prompt for after it",
  ].join("\n");
}

/** Whether `name` is one of the built-in commands (a custom command of that name is not run). */
export function isBuiltinCommand(name: string): boolean {
  const lower = name.toLowerCase();
  return COMMANDS.some((command) => command.name === lower || command.aliases?.includes(lower));
}

/** Whether a line is a slash command, or a lone "/" (which lists them); a path like "/usr/bin" is not. */
export function isSlashCommand(line: string): boolean {
  return /^\/([a-z][a-z-]*(\s|$)|$)/i.test(line.trim());
}

/** Runs one slash command line. */
export async function runSlashCommand(line: string, host: ReplHost): Promise<SlashOutcome> {
  const match = /^\/([a-z][a-z-]*)\s*(.*)$/is.exec(line.trim());
  const name = match?.[1]?.toLowerCase() ?? "";
  const argument = match?.[2]?.trim() ?? "";
  if (name === "") {
    host.print(helpText(host.customCommands ?? []));
    return "continue";
  }
  const command = COMMANDS.find((candidate) => candidate.name === name || candidate.aliases?.includes(name));
  if (command === undefined) {
    const names = COMMANDS.flatMap((candidate) => [candidate.name, ...(candidate.aliases ?? [])]);
    const guess = closestMatch(name, names);
    host.print(
      guess !== undefined
        ? `Unknown command /${name}. Did you mean /${guess}? (/help lists them all)`
        : `Unknown command /${name}. Type /help for the list.`,
    );
    return "continue";
  }
  return (await command.run(host, argument)) ?? "continue";
}

async function compact(host: ReplHost, argument: string): Promise<undefined> {
  const engine = host.engine;
  if (!engine.timeline.entries.some((entry) => entry.type === "user" || entry.type === "assistant")) {
    host.print("Nothing to compact yet: the conversation is empty.");
    return undefined;
  }
  host.print("Compacting…");
  const before = tierActivity(engine.timeline.entries).compactions;
  // The whole next request before and after, as /context and the status line count it (the compaction's own
  // figures count messages only, which would disagree with both).
  const preTokens = estimateNextRequest(contextReportInput(engine)).total;
  await engine.compact(argument === "" ? undefined : argument);
  const activity = tierActivity(engine.timeline.entries);
  const postTokens = estimateNextRequest(contextReportInput(engine)).total;
  host.print(
    activity.compactions > before
      ? `Compacted: ~${preTokens.toLocaleString("en-US")} → ~${postTokens.toLocaleString("en-US")} tokens.`
      : "Nothing to compact.",
  );
  return undefined;
}

async function resume(host: ReplHost, argument: string): Promise<undefined> {
  let target = argument;
  if (target === "") {
    const sessions = (await listSessions(host.engine.cwd, host.home)).filter(
      (session) => session.sessionId !== host.engine.sessionId,
    );
    if (sessions.length === 0) {
      host.print("No other sessions in this directory.");
      return undefined;
    }
    const shown = sessions.slice(0, DEFAULT_RESUME_LIST_LENGTH);
    host.print(
      shown
        .map(
          (session, index) =>
            `  ${String(index + 1).padStart(2)}. ${session.mtime.toISOString().slice(0, 16).replace("T", " ")}  ${session.sessionId}  ${session.firstPrompt || "(no prompt)"}`,
        )
        .join("\n"),
    );
    const answer = (await host.ask("Resume which (number or session id, empty to cancel)? ")) ?? "";
    const choice = answer.trim();
    if (choice === "") return undefined;
    const picked = /^\d+$/.test(choice)
      ? shown[Number(choice) - 1]
      : sessions.find((session) => session.sessionId.startsWith(choice));
    if (picked === undefined) {
      host.print(`No session matches "${choice}".`);
      return undefined;
    }
    target = picked.path;
  }
  await host.switchToSession(target);
  host.print(`Resumed session ${host.engine.sessionId} (${host.engine.timeline.entries.length} entries).`);
  return undefined;
}

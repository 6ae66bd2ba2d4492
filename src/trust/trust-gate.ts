/**
 * The one gate for a project's own executable configuration (docs/TRUST.md). Whatever a cloned repository can
 * make run — its settings' hooks and `env`, its `.mcp.json` servers, `apiKeyHelper`, shell in its skills and
 * commands, hooks and servers of plugins it enables — asks `mayRun(kind, what)` first. In a trusted folder the
 * answer is yes; otherwise no, and the item is remembered so one line at start can name everything withheld.
 * User-level configuration never asks: it is the user's own.
 */
import { isTrustedByClaudeCode, recordClaudeCodeTrust } from "../home/index.js";
import { isFolderTrusted, trustFolder } from "./trust-store.js";

/** The kinds of project code the gate knows (named in the withheld line). */
export type ProjectCodeKind =
  | "hooks"
  | "mcpServers"
  | "env"
  | "apiKeyHelper"
  | "commandShell"
  | "pluginHooks"
  | "pluginMcpServers"
  | "statusLine"
  | "allowRules"
  | "permissionMode"
  | "additionalDirectories";

/**
 * The kinds that only widen permissions (a project's allow rules, a mode that asks less, more directories): an
 * untrusted folder's are ignored and named, but they run nothing, so print mode never stops for them.
 */
export const PERMISSION_KINDS: readonly ProjectCodeKind[] = ["allowRules", "permissionMode", "additionalDirectories"];

const KIND_LABELS: Record<ProjectCodeKind, string> = {
  hooks: "hooks",
  mcpServers: "MCP servers",
  env: "env",
  apiKeyHelper: "apiKeyHelper",
  commandShell: "shell in skills/commands",
  pluginHooks: "plugin hooks",
  pluginMcpServers: "plugin MCP servers",
  statusLine: "status line command",
  allowRules: "allow rules",
  permissionMode: "permission mode",
  additionalDirectories: "additional directories",
};

export interface WithheldItem {
  kind: ProjectCodeKind;
  /** What would have run: a hook command, a server name, a variable name. */
  what: string;
  /** The file it came from. */
  source: string;
}

export interface TrustGateOptions {
  /** The project folder. */
  cwd: string;
  /** threadline's home (where trusted folders are recorded). */
  home: string;
  /** "interactive" may ask (the CLI does, once per folder); "print" and "library" never ask. */
  mode: "interactive" | "print" | "library";
  /** `--trust-folder`: trusted for this run, whatever the record says. Default false. */
  trustFlag?: boolean;
  /**
   * Claude Code's record (`~/.claude.json`): a folder trusted there is trusted here, and a yes here is written
   * there too when the file exists (home/claude-json.ts). Default none (threadline's own record only).
   */
  claudeJsonPath?: string;
}

export interface TrustGate {
  readonly cwd: string;
  /** Whether the folder is trusted now (recorded, flagged, or accepted at the question). */
  readonly trusted: boolean;
  /** Whether project code of `kind` may run; when not, `what` (from `source`) is remembered as withheld. */
  mayRun(kind: ProjectCodeKind, what?: string, source?: string): boolean;
  /** Everything withheld so far, in the order asked. */
  withheld(): readonly WithheldItem[];
  /** One line naming what was withheld and how to trust the folder; undefined when nothing was. */
  withheldLine(): string | undefined;
  /** Records the folder as trusted (the person said yes) and opens the gate for this run. */
  trust(): void;
  /** Whether the CLI should ask: interactive, untrusted, and something was withheld. */
  shouldAsk(): boolean;
}

/** The gate for `cwd`. */
export function createTrustGate(options: TrustGateOptions): TrustGate {
  let trusted =
    options.trustFlag === true ||
    isFolderTrusted(options.cwd, options.home) ||
    // Stryker disable next-line ConditionalExpression: with no path the record reads as unreadable, so not trusted either
    (options.claudeJsonPath !== undefined && isTrustedByClaudeCode(options.cwd, options.claudeJsonPath));
  const items: WithheldItem[] = [];
  return {
    cwd: options.cwd,
    get trusted() {
      return trusted;
    },
    mayRun(kind, what = "", source = "") {
      if (trusted) return true;
      if (!items.some((item) => item.kind === kind && item.what === what && item.source === source))
        items.push({ kind, what, source });
      return false;
    },
    withheld: () => items,
    withheldLine: () => withheldLine(options.cwd, items),
    trust() {
      trustFolder(options.cwd, options.home);
      // Stryker disable next-line ConditionalExpression: with no path the record is refused as unreadable and nothing is written
      if (options.claudeJsonPath !== undefined) recordClaudeCodeTrust(options.cwd, options.claudeJsonPath);
      trusted = true;
    },
    shouldAsk: () => options.mode === "interactive" && !trusted && items.length > 0,
  };
}

/** `folder … is not trusted: withheld hooks (…), MCP servers (…); …` as one line. */
export function withheldLine(cwd: string, items: readonly WithheldItem[]): string | undefined {
  if (items.length === 0) return undefined;
  const byKind = new Map<ProjectCodeKind, string[]>();
  for (const item of items) {
    const list = byKind.get(item.kind) ?? [];
    if (item.what !== "" && !list.includes(item.what)) list.push(item.what);
    byKind.set(item.kind, list);
  }
  const parts = [...byKind].map(([kind, whats]) =>
    whats.length === 0 ? KIND_LABELS[kind] : `${KIND_LABELS[kind]} (${whats.map(short).join(", ")})`,
  );
  return `folder ${cwd} is not trusted: withheld project ${parts.join("; ")}. Trust it by answering yes in interactive mode, or run with --trust-folder`;
}

function short(text: string): string {
  const line = text.replace(/[\r\n]+/g, " ");
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** The question interactive mode asks, listing what would run (one item a line). */
export function trustQuestionLines(cwd: string, items: readonly WithheldItem[]): string[] {
  return [
    `This folder (${cwd}) has configuration that runs code or grants permissions on your machine:`,
    ...items.map(
      (item) =>
        `  ${KIND_LABELS[item.kind]}${item.what !== "" ? `: ${short(item.what)}` : ""}${item.source !== "" ? `  (${item.source})` : ""}`,
    ),
    "Only trust folders whose files you have read or whose authors you trust.",
  ];
}

/** The question's prompt; a yes is recorded so the folder is never asked about again. */
export const TRUST_PROMPT = "Trust this folder and run them? (y/N) ";

/** Whether an answer to TRUST_PROMPT is a yes. */
export function isYes(answer: string | null): boolean {
  // Stryker disable next-line ConditionalExpression: the pattern tests null as the text "null", which is not a yes
  return answer !== null && /^\s*y(es)?\s*$/i.test(answer);
}

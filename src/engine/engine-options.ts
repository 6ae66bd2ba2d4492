/**
 * The options a QueryEngine takes, each with its default, and those of one submitted message.
 */

import type { CompactionSettings } from "../compaction/index.js";
import type { LoopConfig } from "../loop/query.js";
import type { DeferredToolLoading } from "../mcp/index.js";
import type { PluginFolder, Skill } from "../memory/index.js";
import type { EffortLevel, TimelineEntry } from "../messages/index.js";
import type { Provider, ProviderName } from "../provider/index.js";
import type { ServerCompactionSettings } from "../request/index.js";
import type { HooksSettings } from "../settings/index.js";
import type { AnyTool, PermissionPolicy, SecretEnvSettings } from "../tools/index.js";
import type { TranscriptStore } from "../transcript/index.js";
import type { SubagentType } from "./subagent-types.js";
import type { OutputStyleInstructions } from "./system-prompt.js";

export interface QueryEngineOptions {
  /** Workspace root; tools are confined to it. Default `process.cwd()`. */
  cwd?: string;
  /** Default: `createProvider` for `platform`, configured from the environment. */
  provider?: Provider;
  /** Platform of the default provider (ignored when `provider` is given). Default: `THREADLINE_USE_BEDROCK` / `THREADLINE_USE_VERTEX`, else "anthropic". */
  platform?: ProviderName;
  /** The server the provider talks to (`--base-url`). Default: the provider's environment variable. */
  baseURL?: string;
  /** Default `ANTHROPIC_MODEL`, else `DEFAULT_MODEL`. */
  model?: string;
  /** Model to switch to after repeated overloads (default none). */
  fallbackModel?: string;
  /**
   * Session-wide effort (`--effort`, settings `effortLevel`): sent as `output_config.effort` where the server
   * declares the level for the turn's model (GET /v1/models), else dropped with one warning notice. Default none.
   */
  effort?: EffortLevel;
  /** Default: Read, Write, Edit, Bash, Grep, Glob, plus Snip when snip is on (and `deferredTools`). */
  tools?: AnyTool[];
  /**
   * Add Claude Code's deferred built-ins (WebFetch, NotebookEdit) behind ToolSearch to the default tools
   * (engine/session-tools.ts; ignored when `tools` is given). Default false, so a library session's tools block
   * is what it was; the CLI turns it on (docs/TOOLS.md).
   */
  deferredTools?: boolean;
  /**
   * Tools added after the built-in ones (MCP servers' tools, ToolSearch), asked again at every turn start so a
   * server that connects late is found; a name already present is kept, never replaced or removed. Deferred
   * tools (`deferLoading`) enter the tools block only once ToolSearch has loaded them and a compaction has
   * passed (mcp/tool-search.ts). Default none.
   */
  extraTools?: () => readonly AnyTool[];
  /**
   * When definitions ToolSearch returned join the tools block (mcp/tool-search.ts). Default
   * `DEFAULT_DEFERRED_TOOL_LOADING` ("next-compaction").
   */
  deferredToolLoading?: DeferredToolLoading;
  /** Subagent types the Agent tool offers; `false` leaves Agent out. Default DEFAULT_SUBAGENT_TYPES unless `tools` is given. */
  agents?: readonly SubagentType[] | false;
  /**
   * Offer Claude Code's Workflow tool beside Agent (docs/TOOLS.md "Workflow"), in the tools block (not deferred).
   * Default: on with `deferredTools` (the CLI's Claude Code tool set) while Agent is on, so a library session's
   * tools block is what it was.
   */
  workflow?: boolean;
  /** Offer the REPL tool (primitive calls recorded as virtual pairs). Default true unless `tools` is given. */
  repl?: boolean;
  /** Default mode "default" with no ask callback (non-read-only tools are denied). */
  permission?: Partial<PermissionPolicy>;
  /**
   * Run Bash (and REPL's Bash) under bubblewrap: workspace writable, the rest read-only, private /tmp, no
   * network. `true` asks for it, `false` turns it off. Default: on when `bwrap` works on this machine.
   */
  sandbox?: boolean;
  /** Let sandboxed commands use the network. Default false. */
  sandboxNetwork?: boolean;
  /**
   * Extra secret names kept out of tool processes, and names passed through anyway. Default: from
   * THREADLINE_SECRET_ENV / THREADLINE_PASS_ENV.
   */
  secretEnv?: SecretEnvSettings;
  /** Replaces the default instructions segment. */
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /**
   * An output style (`outputStyle` setting, docs/SETTINGS.md "Output styles"): the system prompt is built with it
   * once, at session start. Default none (the default style).
   */
  outputStyle?: OutputStyleInstructions;
  /** Default a random UUID. */
  sessionId?: string;
  /** Default: a JSONL file under THREADLINE_HOME; `false` keeps the transcript in memory. */
  transcript?: TranscriptStore | false;
  /** Overrides THREADLINE_HOME for the default transcript location. */
  home?: string;
  /**
   * Transcript store URL: `postgres://…` or `postgresql://…` keeps sessions in PostgreSQL (one writer per
   * session, by lease). Default `$THREADLINE_STORE`; unset means JSONL files. Ignored when `transcript` is given.
   */
  store?: string;
  /** Project key sessions are filed under in a database store. Default the cwd's slug (`cwdSlug(cwd)`). */
  project?: string;
  compaction?: Partial<CompactionSettings>;
  /**
   * Trigger, pause and instructions of server-side compaction, sent only where the provider declares
   * `serverCompaction` (THREADLINE_SERVER_COMPACTION=on). Default DEFAULT_SERVER_COMPACTION_SETTINGS.
   */
  serverCompaction?: Partial<ServerCompactionSettings>;
  /**
   * Read memory files (CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md, AGENTS.md; the user's under ~/.claude and
   * threadline's home; nested ones when a tool touches their subtree) and keep them in every request.
   * Default true; `THREADLINE_DISABLE_MEMORY=1` in `env` turns it off too. See docs/MEMORY.md.
   */
  memoryFiles?: boolean;
  /**
   * Offer the `Skill` tool for the skills under `.claude/skills/`, `~/.claude/skills/` and threadline's home
   * `skills/` (found when the first message of the process is submitted). Default: on while memory files are
   * on, unless `tools` is given.
   */
  skills?: boolean;
  /**
   * Enabled plugins' `skills/` folders: their skills join the Skill tool as `<plugin>:<folder>`
   * (plugins/, docs/PLUGINS.md). Default none.
   */
  pluginSkillFolders?: readonly PluginFolder[];
  /**
   * Plugins' commands offered to the model in the Skill tool, as Claude Code offers them (each renders its prompt
   * when called: `` !`cmd` `` run, `${CLAUDE_PLUGIN_ROOT}` expanded). A skill of the same name wins. Default none.
   */
  commandSkills?: readonly Skill[];
  /**
   * Keep compaction notes (Claude Code's "session memory"; the option keeps that name): a background summary that
   * autocompact can use without a model call. Default true.
   */
  sessionMemory?: boolean;
  /** Model requests allowed per turn (default unlimited). */
  maxTurns?: number;
  /** Overrides the model table's context window. */
  contextWindow?: number;
  thinking?: LoopConfig["thinking"];
  maxTokens?: number;
  /**
   * Forces every request's cache TTL (the pause policy then never changes it). Default: the pause policy's
   * choice per turn (`pause`), which is "5m" until the person's pauses make 1 hour cheaper.
   */
  cacheTtl?: "5m" | "1h";
  /** How pauses between turns are paid for (docs/PROMPT-CACHE.md, "Pauses"). Default: by price, no keep-warm. */
  pause?: PauseOptions;
  additionalDirectories?: string[];
  /** Entries to start from (resume). */
  initialEntries?: readonly TimelineEntry[];
  /**
   * Keep file checkpoints before each prompt so `rewind` can put files back (docs/REWIND.md). Default false
   * for the library (Claude Code's SDK: `enableFileCheckpointing`); the CLI turns it on.
   */
  fileCheckpointing?: boolean;
  /**
   * Command hooks by event, as settings files hold them (`loadSettings(...).settings.hooks`). They run with the
   * tools' environment (secrets removed) and `CLAUDE_PROJECT_DIR` = `cwd`. Default none.
   */
  hooks?: HooksSettings;
  /**
   * Whether the workspace's own executable configuration may run: project hooks, project `.mcp.json` servers,
   * shell in project skills and commands, hooks and servers of project-enabled plugins. The CLI sets it from the
   * folder's trust gate (trust/, docs/TRUST.md) and already leaves withheld hooks out of `hooks`; code the engine
   * loads itself (commands' `!` shell, plugins) checks it. Default true: a library caller chose what it passed.
   */
  projectCodeTrusted?: boolean;
  /** SessionStart's `source` for a new session: "clear" after /clear. Default "startup" ("resume" when resuming). */
  sessionStartSource?: "startup" | "clear";
  /** A hook's time limit when its settings give none. Default DEFAULT_HOOK_TIMEOUT_MS (60 s). */
  hookTimeoutMs?: number;
  /**
   * Variables tool processes and hooks get on top of this process's environment (a settings file's `env`);
   * secrets among them are removed as always (tools/secret-env.ts). Default none.
   */
  toolEnv?: Readonly<Record<string, string>>;
  /** Clock, for tests. Default `() => new Date()`. */
  now?: () => Date;
  env?: NodeJS.ProcessEnv;
}

export interface SubmitOptions {
  signal?: AbortSignal;
  /**
   * Permission rules allowed for this turn only, on top of the session's (a custom command's
   * `allowed-tools`). Deny rules still win. Default none.
   */
  allowedTools?: readonly string[];
  /**
   * The model of this turn only (a custom command's `model:`); the session's model is back for the next turn.
   * Default the session's.
   */
  model?: string;
  /**
   * Whether `@path` in the prompt attaches that file (engine/file-mentions.ts). Default true; false for a custom
   * command's prompt, whose `@file`s its expansion has inlined already (memory/command-context.ts).
   */
  fileMentions?: boolean;
}

/** The pause policy's settings (docs/PROMPT-CACHE.md, "Pauses"). */
export interface PauseOptions {
  /** "auto" (default): by price; "5m" / "1h" force the TTL. */
  cacheTtl?: "auto" | "5m" | "1h";
  /** "auto" (default): by price while a person is present; "on" forces it (still only with a person); "off". */
  keepWarm?: "auto" | "on" | "off";
  /** Longest keep-warm run after a turn, in minutes. Default 60. */
  keepWarmLimitMinutes?: number;
  /** Whether a person is at the terminal now; without it keep-warm never runs (print mode, library use). */
  personPresent?: () => boolean;
  /** Timers for keep-warm (tests and benches pass a virtual clock). Default: real time. */
  clock?: PauseClock;
  /**
   * The person's gaps from earlier sessions of this project, oldest first, in ms (the CLI keeps them in a small
   * file: docs/PROMPT-CACHE.md, "Pauses across sessions"); weighed before this session's own. Default none.
   */
  earlierGapsMs?: readonly number[];
}

/** Timers the keeper schedules with; tests and benches pass a virtual clock. */
export interface PauseClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

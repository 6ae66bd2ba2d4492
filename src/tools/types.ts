/**
 * The tool contract. Tools are stateless objects; everything a call needs arrives in `ToolContext`.
 */
import type * as z from "zod";
import type { AssistantContentBlock, TimelineEntry, ToolResultContentBlock } from "../messages/index.js";
import type { ScheduledPrompts } from "./schedule/scheduled-prompts.js";
import type { BackgroundTasks } from "./shell/background-tasks.js";
import type { MonitorEvents } from "./shell/monitor-events.js";
import type { SandboxSettings } from "./shell/sandbox.js";
import type { SecretEnvironment } from "./shell/secret-env.js";
import type { WorktreeSession } from "./worktree/worktree-session.js";

/** What a tool may see of the session (Snip and Agent need it; most tools ignore it). */
export interface ToolSessionAccess {
  sessionId: string;
  /** The timeline so far (read-only). */
  entries(): readonly TimelineEntry[];
  /** Append a record (e.g. a snip boundary); it lands in the timeline and transcript before the tool result. */
  append(entry: TimelineEntry): void;
}

export interface ToolContext {
  /** The workspace root; paths are confined to it unless `additionalDirectories` allow more. */
  cwd: string;
  /** Extra directories tools may touch (default none). */
  additionalDirectories: readonly string[];
  /** Aborted when the turn is interrupted. */
  signal: AbortSignal;
  toolUseId: string;
  /** Report progress (shown in the UI as a progress entry). */
  onProgress: (message: string) => void;
  /** Session access; absent when a tool runs outside an engine (tests, REPL primitives). */
  session?: ToolSessionAccess;
  /** How tool processes run (environment, redaction, sandbox). Default `defaultToolRuntime()`: no sandbox. */
  runtime?: ToolRuntime;
  /**
   * Asks the session's model one question outside the conversation (WebFetch's `prompt` about a page), billed
   * as a side request. Absent outside an engine: such tools return the text itself.
   */
  sideQuery?: (query: SideQuery) => Promise<string>;
  /**
   * Runs one server web search in a side request (WebSearch). Present only where the server declares web search
   * (`ProviderCapabilities.webSearch`); absent elsewhere and outside an engine, and WebSearch then says so.
   */
  webSearch?: (query: WebSearchQuery) => Promise<WebSearchAnswer>;
}

/** One WebSearch call's query and domain filters (at most one list of the two, as the API requires). */
export interface WebSearchQuery {
  query: string;
  allowedDomains?: readonly string[];
  blockedDomains?: readonly string[];
}

/** The search side request's answer: its blocks as the server sent them (server_tool_use, results, text). */
export interface WebSearchAnswer {
  content: AssistantContentBlock[];
}

/** One question asked outside the conversation: its own system prompt, one user message, no tools. */
export interface SideQuery {
  system: string;
  prompt: string;
  maxTokens: number;
}

/** How tool processes run, fixed for a session. */
export interface ToolRuntime {
  /** The environment tool processes get (secrets removed) and the redactor for their output. */
  secrets: SecretEnvironment;
  /**
   * Run Bash under bubblewrap with these settings; undefined runs it directly. A function is asked when a command
   * is about to run (an engine's runtime: bubblewrap is probed on the first Bash call, not at start-up, so a
   * session that never runs a command never starts a bwrap process and its first request waits for none).
   */
  sandbox?: SandboxSettings | (() => SandboxSettings | undefined);
  /** The session's background commands (Bash `run_in_background`); absent outside an engine. */
  background?: BackgroundTasks;
  /** Lines the session's Monitor commands printed, not yet told to the model; absent outside an engine. */
  monitorEvents?: MonitorEvents;
  /** The session's scheduled prompts (CronCreate, ScheduleWakeup); absent outside an engine. */
  scheduled?: ScheduledPrompts;
  /** How AskUserQuestion asks the session's person; absent where no one can answer (print mode). */
  questions?: QuestionChannel;
  /** How ExitPlanMode leaves plan mode; absent outside an engine. */
  planMode?: PlanModeControl;
  /**
   * The session's worktree (EnterWorktree / ExitWorktree): while one is entered, its folder is every call's
   * working directory and workspace root. Absent outside an engine.
   */
  worktree?: WorktreeSession;
}

/** One multiple-choice question for the person (AskUserQuestion, tools/questions/). */
export interface AskedQuestion {
  question: string;
  /** A short label (Claude Code: at most 12 characters). */
  header: string;
  options: Array<{ label: string; description: string }>;
  multiSelect?: boolean | undefined;
}

/**
 * How a session asks its person: each question's text → the chosen label(s) (several joined by ", ") or what
 * they typed; undefined when they dismissed the questions.
 */
export interface QuestionChannel {
  ask(questions: readonly AskedQuestion[], signal: AbortSignal): Promise<Readonly<Record<string, string>> | undefined>;
}

/** How a session leaves plan mode (ExitPlanMode): the engine asks the person (engine/plan-mode.ts). */
export interface PlanModeControl {
  inPlanMode(): boolean;
  /**
   * Shows the plan to the person: accepted (plan mode ends), or not, with what they said to change if anything.
   */
  present(plan: string): Promise<{ accepted: boolean; feedback?: string }>;
}

/** The part of a context that decides whether a path is inside the workspace. */
export type WorkspaceScope = Pick<ToolContext, "cwd" | "additionalDirectories">;

/** A tool's outcome. `isError` results are text-only (the API's rule). */
export interface ToolOutput {
  content: string | ToolResultContentBlock[];
  isError?: boolean;
  /** Structured data for the UI; never sent to the model. */
  display?: unknown;
}

export interface Tool<Input = unknown> {
  /** Claude Code's name for it (`Read`, `Bash`, ...). */
  readonly name: string;
  readonly description: string;
  /** Validates the model's input; sent to the API as JSON Schema. */
  readonly inputSchema: z.ZodType<Input>;
  /**
   * The JSON Schema sent to the API as it is (an MCP server's own `inputSchema`); `inputSchema` then only
   * validates. Default none: the definition's schema is generated from `inputSchema`.
   */
  readonly inputJsonSchema?: Readonly<Record<string, unknown>>;
  /**
   * Kept out of the tools block until the model finds it with ToolSearch (MCP tools on the public path), so
   * configuring many tools does not grow or break the cached prefix. Default false.
   */
  readonly deferLoading?: boolean;
  /**
   * Whether this call only reads, and only inside `scope` (the workspace) when given: read-only calls run
   * without asking in the default mode and may run concurrently.
   */
  isReadOnly(input: Input, scope?: WorkspaceScope): boolean;
  /** Whether microcompact may clear this tool's old results. */
  readonly compactable: boolean;
  /**
   * The tool puts each action it takes through the session's permission policy itself (REPL does, per
   * primitive call), so the call as a whole is only checked against deny rules: nobody is asked twice.
   * Default false.
   */
  readonly checksOwnPermissions?: boolean;
  /** What the rest of the system asks about this tool (permissions, checkpoints, subagents, the terminal). */
  readonly traits?: ToolTraits;
  call(input: Input, context: ToolContext): Promise<ToolOutput>;
}

/**
 * What the rest of the system asks about a tool, declared by the tool itself rather than kept in tables keyed
 * by its name elsewhere (test/architecture/tool-tables.test.ts). Every field is optional: a tool that says
 * nothing (an MCP tool) has no path rule, changes no files the checkpoints know of, is given to subagents and
 * is shown one call a line.
 */
export interface ToolTraits {
  /**
   * Permission rules whose path specifier covers this tool's calls: `Read(./secrets/**)` covers Read, Grep and
   * Glob; `Edit(...)` covers Edit, Write and NotebookEdit. `pathField` names the input field holding the path;
   * `searchesFolder` when that path is a folder searched (absent: the working directory).
   */
  readonly pathRule?: {
    readonly ruleNames: readonly string[];
    readonly pathField: string;
    readonly searchesFolder?: boolean;
  };
  /**
   * How its calls change files: `file`, the one file `pathField` names (kept by checkpoints before the call;
   * `acceptEdits` mode lets it run when `acceptEdits` is true); `command`, any file (the workspace is watched).
   */
  readonly changesFiles?:
    | { readonly kind: "file"; readonly pathField: string; readonly acceptEdits: boolean }
    | { readonly kind: "command" };
  /** A file it reads or changes may bring nested memory files (CLAUDE.md below the workspace) into view. */
  readonly revealsMemoryFiles?: boolean;
  /** False: a subagent never gets it (it acts on the parent session, or would recurse). Default true. */
  readonly forSubagents?: boolean;
  /** How the terminal shows it: consecutive successful calls as one line (`Read 3 files`), a diff of a change. */
  readonly terminal?: {
    readonly group?: { readonly verb: string; readonly noun: string };
    readonly diff?: "write" | "edit";
  };
}

/** Any tool, erased for registries. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input type
export type AnyTool = Tool<any>;

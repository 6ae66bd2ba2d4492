/**
 * The options a QueryEngine takes, each with its default, and those of one submitted message.
 */
import type { CompactionSettings } from "../compaction/index.js";
import type { LoopConfig } from "../loop/query.js";
import type { TimelineEntry } from "../messages/index.js";
import type { PlatformName } from "../provider/index.js";
import type { Provider } from "../provider/types.js";
import type { ServerCompactionSettings } from "../request/index.js";
import type { PermissionPolicy } from "../tools/permissions.js";
import type { SecretEnvSettings } from "../tools/secret-env.js";
import type { AnyTool } from "../tools/types.js";
import type { TranscriptStore } from "../transcript/index.js";
import type { SubagentType } from "./subagent-types.js";

export interface QueryEngineOptions {
  /** Workspace root; tools are confined to it. Default `process.cwd()`. */
  cwd?: string;
  /** Default: `createProvider` for `platform`, configured from the environment. */
  provider?: Provider;
  /** Platform of the default provider (ignored when `provider` is given). Default: `THREADLINE_USE_BEDROCK` / `THREADLINE_USE_VERTEX`, else "anthropic". */
  platform?: PlatformName;
  /** Default `ANTHROPIC_MODEL`, else `DEFAULT_MODEL`. */
  model?: string;
  /** Model to switch to after repeated overloads (default none). */
  fallbackModel?: string;
  /** Default: Read, Write, Edit, Bash, Grep, Glob, plus Snip when snip is on. */
  tools?: AnyTool[];
  /** Subagent types the Agent tool offers; `false` leaves Agent out. Default DEFAULT_SUBAGENT_TYPES unless `tools` is given. */
  agents?: readonly SubagentType[] | false;
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
  /** Keep a background session-memory summary that autocompact can use without a model call. Default true. */
  sessionMemory?: boolean;
  /** Model requests allowed per turn (default unlimited). */
  maxTurns?: number;
  /** Overrides the model table's context window. */
  contextWindow?: number;
  thinking?: LoopConfig["thinking"];
  maxTokens?: number;
  /** Default "5m". */
  cacheTtl?: "5m" | "1h";
  additionalDirectories?: string[];
  /** Entries to start from (resume). */
  initialEntries?: readonly TimelineEntry[];
  /** Clock, for tests. Default `() => new Date()`. */
  now?: () => Date;
  env?: NodeJS.ProcessEnv;
}

export interface SubmitOptions {
  signal?: AbortSignal;
}

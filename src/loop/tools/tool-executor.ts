/**
 * Runs the tool_use blocks of one response. Blocks are added as soon as they finish streaming, so tools
 * start while the response is still arriving. Consecutive read-only calls run together (up to
 * `DEFAULT_MAX_CONCURRENCY`); any other call runs alone. Results come back in block order.
 */
import { type HookRunner, toolResponse } from "../../hooks/index.js";
import { contentText, type ToolUseBlock } from "../../messages/index.js";
import type {
  AnyTool,
  PermissionPolicy,
  SideQuery,
  ToolOutput,
  ToolRuntime,
  ToolSessionAccess,
  WebSearchAnswer,
  WebSearchQuery,
  WorkspaceScope,
} from "../../tools/index.js";
import { INTERRUPTED_MESSAGE, missingToolMessage, runTool } from "../../tools/index.js";

/** How many read-only tools may run at once. */
export const DEFAULT_MAX_CONCURRENCY = 10;

export interface ToolExecutorOptions {
  tools: ReadonlyMap<string, AnyTool>;
  policy: PermissionPolicy;
  cwd: string;
  additionalDirectories: readonly string[];
  /** The turn's signal: aborting it cancels running tools. */
  signal: AbortSignal;
  session?: ToolSessionAccess;
  /** How tool processes run (secret-free environment, redaction, sandbox). Default: `defaultToolRuntime()`. */
  runtime?: ToolRuntime;
  onStart?: (block: ToolUseBlock) => void;
  onProgress?: (toolUseId: string, message: string) => void;
  /** Default `DEFAULT_MAX_CONCURRENCY`. */
  maxConcurrency?: number;
  /** Questions tools ask the model outside the conversation (loop/side/side-query.ts). Default none. */
  sideQuery?: (query: SideQuery) => Promise<string>;
  /** Runs a server web search (WebSearch); only where the server declares web search. */
  webSearch?: (query: WebSearchQuery) => Promise<WebSearchAnswer>;
  /** Runs PreToolUse before each call (block, decide, rewrite the input) and PostToolUse after. Default none. */
  hooks?: HookRunner;
}

/** A finished call: its output, and what hooks said about it (context for the model, lines for the person). */
export interface ExecutedCall {
  output: ToolOutput;
  /** Text hooks added for the model (PreToolUse / PostToolUse context and feedback), with the event that said it. */
  hookContext: { event: "PreToolUse" | "PostToolUse" | "PostToolUseFailure"; text: string }[];
  hookNotices: string[];
}

interface Item {
  block: ToolUseBlock;
  readOnly: boolean;
  state: "queued" | "running" | "done";
  /** Not yet in the transcript: a tool with side effects waits for its tool_use entry (docs/EXACTLY-ONCE.md). */
  unrecorded: boolean;
  controller: AbortController;
  result: Promise<ExecutedCall>;
  resolve: (call: ExecutedCall) => void;
}

function plain(output: ToolOutput): ExecutedCall {
  return { output, hookContext: [], hookNotices: [] };
}

export class ToolExecutor {
  readonly #options: ToolExecutorOptions;
  readonly #items: Item[] = [];
  #discarded = false;

  constructor(options: ToolExecutorOptions) {
    this.#options = options;
  }

  // The turn's signal outlives many executors (one per model request), so the abort listener is held only
  // while some tool is unfinished; otherwise long turns would pile listeners onto one signal.
  readonly #onAbort = (): void => this.#cancelAll();
  #listening = false;

  #updateListener(): void {
    const busy = this.#items.some((item) => item.state !== "done");
    if (busy && !this.#listening) this.#options.signal.addEventListener("abort", this.#onAbort, { once: true });
    if (!busy && this.#listening) this.#options.signal.removeEventListener("abort", this.#onAbort);
    this.#listening = busy;
  }

  /** Number of blocks added so far. */
  get size(): number {
    return this.#items.length;
  }

  /**
   * Queue a finished tool_use block; it starts as soon as the concurrency rules allow. With `unrecorded`, a
   * call that is not read-only waits for `recorded(id)`: nothing with side effects runs before the
   * transcript holds its tool_use (a read-only, concurrency-safe call may start at once).
   */
  add(block: ToolUseBlock, unrecorded = false): void {
    let resolve!: (call: ExecutedCall) => void;
    const result = new Promise<ExecutedCall>((done) => {
      resolve = done;
    });
    const tool = this.#options.tools.get(block.name);
    let readOnly = false;
    if (tool) {
      const parsed = tool.inputSchema.safeParse(block.input);
      const scope = { ...this.#options, cwd: this.#options.runtime?.worktree?.cwd() ?? this.#options.cwd };
      readOnly = parsed.success ? safeIsReadOnly(tool, parsed.data, scope) : false;
    }
    this.#items.push({
      block,
      readOnly,
      state: "queued",
      unrecorded,
      controller: new AbortController(),
      result,
      resolve,
    });
    if (this.#options.signal.aborted) this.#cancelAll();
    else this.#pump();
    this.#updateListener();
  }

  /** The tool_use `id` is in the transcript now: a call waiting for that may start. */
  recorded(id: string): void {
    const item = this.#items.find((candidate) => candidate.block.id === id);
    if (item === undefined || !item.unrecorded) return;
    item.unrecorded = false;
    if (!this.#options.signal.aborted) this.#pump();
    this.#updateListener();
  }

  /** Cancel everything from a response that is being retried; results are never reported. */
  discard(): void {
    this.#discarded = true;
    this.#cancelAll();
  }

  /** Outputs in block order; resolves each as soon as it and every block before it are done. */
  async *results(): AsyncGenerator<{ block: ToolUseBlock } & ExecutedCall> {
    for (let index = 0; index < this.#items.length; index++) {
      const item = this.#items[index]!;
      const call = await item.result;
      yield { block: item.block, ...call };
    }
  }

  #pump(): void {
    if (this.#discarded || this.#options.signal.aborted) return;
    const limit = this.#options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
    for (const item of this.#items) {
      if (item.state === "done") continue;
      const running = this.#items.filter((other) => other.state === "running");
      if (item.state === "running") {
        if (!item.readOnly) return; // an exclusive tool holds the line
        continue;
      }
      if (item.unrecorded && !item.readOnly) return; // side effects wait for the transcript (in block order)
      const canStart =
        running.length === 0 || (item.readOnly && running.every((other) => other.readOnly) && running.length < limit);
      if (!canStart) return;
      this.#start(item);
      if (!item.readOnly) return;
    }
  }

  #start(item: Item): void {
    item.state = "running";
    const options = this.#options;
    options.onStart?.(item.block);
    const tool = options.tools.get(item.block.name);
    const run: Promise<ExecutedCall> = tool
      ? this.#run(tool, item)
      : Promise.resolve(plain({ content: missingToolMessage(item.block.name), isError: true }));
    run
      .catch((error: unknown): ExecutedCall => plain({ content: `Error: ${describe(error)}`, isError: true }))
      .then((call) => {
        const final = item.controller.signal.aborted ? plain({ content: INTERRUPTED_MESSAGE, isError: true }) : call;
        item.state = "done";
        item.resolve(final);
        this.#pump();
        this.#updateListener();
      });
  }

  /** PreToolUse hooks, the call itself (through runTool: validation, permission, redaction), PostToolUse hooks. */
  async #run(tool: AnyTool, item: Item): Promise<ExecutedCall> {
    const options = this.#options;
    const { hooks } = options;
    const signal = item.controller.signal;
    const call: ExecutedCall = { output: { content: "" }, hookContext: [], hookNotices: [] };
    let input = item.block.input;
    let policy = options.policy;
    if (hooks?.has("PreToolUse") === true) {
      const pre = await hooks.run(
        "PreToolUse",
        { tool_name: tool.name, tool_input: input, tool_use_id: item.block.id },
        tool.name,
        signal,
      );
      call.hookNotices.push(...pre.notices);
      call.hookContext.push(...pre.context.map((text) => ({ event: "PreToolUse" as const, text })));
      if (pre.block !== undefined || pre.permissionDecision === "deny" || pre.stop !== undefined) {
        const reason = pre.block ?? pre.permissionReason ?? pre.stop ?? "no reason given";
        call.output = { content: `PreToolUse hook blocked this ${tool.name} call: ${reason}`, isError: true };
        return call;
      }
      if (pre.updatedInput !== undefined) input = pre.updatedInput;
      if (pre.permissionDecision === "allow" || pre.permissionDecision === "ask")
        policy = { ...policy, hookDecision: pre.permissionDecision };
    }
    call.output = await runTool(
      tool,
      input,
      {
        // An entered worktree is the working directory and workspace root (tools/worktree-session.ts).
        cwd: options.runtime?.worktree?.cwd() ?? options.cwd,
        additionalDirectories: options.additionalDirectories,
        signal,
        toolUseId: item.block.id,
        onProgress: (message) => options.onProgress?.(item.block.id, message),
        ...(options.session ? { session: options.session } : {}),
        ...(options.runtime ? { runtime: options.runtime } : {}),
        ...(options.sideQuery ? { sideQuery: options.sideQuery } : {}),
        ...(options.webSearch ? { webSearch: options.webSearch } : {}),
      },
      policy,
    );
    // PostToolUse is for calls that ran and succeeded (Claude Code's rule); PostToolUseFailure for those that ran
    // and failed. A call a hook or a permission rule stopped never ran: neither fires.
    const failed = call.output.isError === true;
    const event: "PostToolUse" | "PostToolUseFailure" = failed ? "PostToolUseFailure" : "PostToolUse";
    if (hooks?.has(event) === true && !signal.aborted && !(failed && neverRan(call.output))) {
      const fields = failed
        ? { error: textOf(call.output), is_interrupt: false }
        : { tool_response: toolResponse(tool.name, input, call.output) };
      const post = await hooks.run(
        event,
        { tool_name: tool.name, tool_input: input, ...fields, tool_use_id: item.block.id },
        tool.name,
        signal,
      );
      call.hookNotices.push(...post.notices);
      call.hookContext.push(...post.context.map((text) => ({ event, text })));
      if (post.block !== undefined) call.hookContext.push({ event, text: `feedback: ${post.block}` });
    }
    return call;
  }

  /** Aborts running tools and answers queued ones as interrupted. */
  #cancelAll(): void {
    for (const item of this.#items) {
      item.controller.abort();
      if (item.state === "queued") {
        item.state = "done";
        item.resolve(plain({ content: INTERRUPTED_MESSAGE, isError: true }));
      }
    }
    this.#updateListener();
  }
}

function safeIsReadOnly(tool: AnyTool, input: unknown, scope: WorkspaceScope): boolean {
  try {
    return tool.isReadOnly(input, scope);
  } catch {
    return false;
  }
}

function textOf(output: ToolOutput): string {
  return typeof output.content === "string" ? output.content : contentText(output.content);
}

/** A denial by a rule, the mode or the person: the tool never ran (run-tool.ts words these results). */
function neverRan(output: ToolOutput): boolean {
  return /^(?:Permission denied: |The user denied permission |Plan mode: )/.test(textOf(output));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

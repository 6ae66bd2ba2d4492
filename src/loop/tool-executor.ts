/**
 * Runs the tool_use blocks of one response. Blocks are added as soon as they finish streaming, so tools
 * start while the response is still arriving. Consecutive read-only calls run together (up to
 * `DEFAULT_MAX_CONCURRENCY`); any other call runs alone. Results come back in block order.
 */
import type { HookRunner } from "../hooks/index.js";
import { contentText, type ToolUseBlock } from "../messages/index.js";
import type {
  AnyTool,
  PermissionPolicy,
  ToolOutput,
  ToolRuntime,
  ToolSessionAccess,
  WorkspaceScope,
} from "../tools/index.js";
import { runTool } from "../tools/index.js";

/** How many read-only tools may run at once. */
export const DEFAULT_MAX_CONCURRENCY = 10;

/** Result text recorded for a tool that an interruption stopped or never started. */
export const INTERRUPTED_TOOL_MESSAGE = "Interrupted by user: the tool call was cancelled before it finished.";

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
  /** Runs PreToolUse before each call (block, decide, rewrite the input) and PostToolUse after. Default none. */
  hooks?: HookRunner;
}

/** A finished call: its output, and what hooks said about it (context for the model, lines for the person). */
export interface ExecutedCall {
  output: ToolOutput;
  /** Text hooks added for the model (PreToolUse / PostToolUse context and feedback), with the event that said it. */
  hookContext: { event: "PreToolUse" | "PostToolUse"; text: string }[];
  hookNotices: string[];
}

interface Item {
  block: ToolUseBlock;
  readOnly: boolean;
  state: "queued" | "running" | "done";
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

  /** Queue a finished tool_use block; it starts as soon as the concurrency rules allow. */
  add(block: ToolUseBlock): void {
    let resolve!: (call: ExecutedCall) => void;
    const result = new Promise<ExecutedCall>((done) => {
      resolve = done;
    });
    const tool = this.#options.tools.get(block.name);
    let readOnly = false;
    if (tool) {
      const parsed = tool.inputSchema.safeParse(block.input);
      readOnly = parsed.success ? safeIsReadOnly(tool, parsed.data, this.#options) : false;
    }
    this.#items.push({ block, readOnly, state: "queued", controller: new AbortController(), result, resolve });
    if (this.#options.signal.aborted) this.#cancelAll();
    else this.#pump();
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
      : Promise.resolve(plain({ content: `Error: No such tool available: ${item.block.name}`, isError: true }));
    run
      .catch((error: unknown): ExecutedCall => plain({ content: `Error: ${describe(error)}`, isError: true }))
      .then((call) => {
        const final = item.controller.signal.aborted
          ? plain({ content: INTERRUPTED_TOOL_MESSAGE, isError: true })
          : call;
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
        cwd: options.cwd,
        additionalDirectories: options.additionalDirectories,
        signal,
        toolUseId: item.block.id,
        onProgress: (message) => options.onProgress?.(item.block.id, message),
        ...(options.session ? { session: options.session } : {}),
        ...(options.runtime ? { runtime: options.runtime } : {}),
      },
      policy,
    );
    // PostToolUse is for calls that ran and succeeded (Claude Code's rule); a denied or failed call has none.
    if (hooks?.has("PostToolUse") === true && call.output.isError !== true && !signal.aborted) {
      const post = await hooks.run(
        "PostToolUse",
        {
          tool_name: tool.name,
          tool_input: input,
          tool_response: toolResponse(input, call.output),
          tool_use_id: item.block.id,
        },
        tool.name,
        signal,
      );
      call.hookNotices.push(...post.notices);
      call.hookContext.push(...post.context.map((text) => ({ event: "PostToolUse" as const, text })));
      if (post.block !== undefined) call.hookContext.push({ event: "PostToolUse", text: `feedback: ${post.block}` });
    }
    return call;
  }

  /** Aborts running tools and answers queued ones as interrupted. */
  #cancelAll(): void {
    for (const item of this.#items) {
      item.controller.abort();
      if (item.state === "queued") {
        item.state = "done";
        item.resolve(plain({ content: INTERRUPTED_TOOL_MESSAGE, isError: true }));
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

/**
 * `tool_response` for PostToolUse: the result text, whether it succeeded, and the file path for file tools
 * (Claude Code's responses are per tool; hooks mostly read `tool_input.file_path` and this).
 */
function toolResponse(input: unknown, output: ToolOutput): Record<string, unknown> {
  const path = (input as { file_path?: unknown } | null)?.file_path;
  return {
    ...(typeof path === "string" ? { filePath: path } : {}),
    success: output.isError !== true,
    content: typeof output.content === "string" ? output.content : contentText(output.content),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

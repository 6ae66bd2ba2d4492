/**
 * The interactive mode's input and output: on a TTY the raw-mode prompt with its live region (terminal/input.ts)
 * and a renderer writing above it; without one, lines read from a pipe (node:readline) and plain output.
 */
import { createInterface } from "node:readline";
import type { CliOptions } from "../args.js";
import type { CliIo } from "../io.js";
import { TerminalInput } from "../terminal/input.js";
import { LineReader } from "../terminal/line-reader.js";
import { DEFAULT_MARKDOWN_WIDTH } from "../terminal/markdown.js";
import type { Style } from "../terminal/style.js";
import type { TextSink } from "../terminal/text.js";
import type { PromptReader } from "./questions/permission-prompt.js";
import { TurnRenderer } from "./render/render.js";
import type { ChangeCache } from "./render/tool-outcome.js";

export interface ReplTerminal {
  /** The raw-mode prompt on a TTY (undefined when reading lines from a pipe). */
  terminal: TerminalInput | undefined;
  reader: PromptReader;
  sink: (TextSink & { flush?: () => void }) | undefined;
  renderer: TurnRenderer;
}

export interface ReplKeys {
  onInterrupt(): void;
  onEscape(): void;
  /** Shift+Tab: the next permission mode (mode-cycle.ts). */
  onBackTab(): void;
  /** Ctrl-O: show the calls behind the last grouped line. */
  onExpand(renderer: TurnRenderer): void;
  /** A line the pipe reader prints (its own prompts). */
  print(line: string): void;
}

export function openReplTerminal(
  cli: Pick<CliOptions, "verbose">,
  io: CliIo,
  style: Style,
  changes: ChangeCache,
  keys: ReplKeys,
): ReplTerminal {
  if (io.stdin.isTTY === true && io.stdout.isTTY === true) {
    let renderer: TurnRenderer | undefined;
    const terminal = new TerminalInput({ stdin: io.stdin, stdout: io.stdout }, style, {
      onInterrupt: () => keys.onInterrupt(),
      onEscape: () => keys.onEscape(),
      onBackTab: () => keys.onBackTab(),
      onExpand: () => {
        if (renderer !== undefined) keys.onExpand(renderer);
      },
    });
    // Output reaches the screen above the live region, a whole line at a time.
    const sink = terminal.sink();
    renderer = new TurnRenderer(sink, {
      verbose: cli.verbose,
      style,
      markdown: true,
      width: () => (io.stdout as { columns?: number }).columns || DEFAULT_MARKDOWN_WIDTH,
      details: { cwd: io.cwd, changes },
      groupReads: true,
    });
    return { terminal, reader: terminal, sink, renderer };
  }
  const renderer = new TurnRenderer(io.stdout, { verbose: cli.verbose, style });
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: false, historySize: 500 });
  const reader = new LineReader(rl, (line) => keys.print(line));
  rl.on("SIGINT", () => keys.onInterrupt());
  return { terminal: undefined, reader, sink: undefined, renderer };
}

/**
 * The subcommands (`demo`, `emulator`, `inspect`, `sessions`, `export`, `import`) and how a typo of one is told from a prompt: the first
 * argument is within a small edit distance of a subcommand and what follows looks like that subcommand's
 * arguments (nothing, a flag, or a path), e.g. `threadline inpsect x.jsonl`. `threadline fix the bug` stays a prompt.
 */
import { closestMatch } from "./did-you-mean.js";

export type SubcommandName = "demo" | "emulator" | "inspect" | "sessions" | "export" | "import" | "mcp";

/** Subcommands in the order the usage lists them. */
export const SUBCOMMANDS: readonly SubcommandName[] = [
  "demo",
  "emulator",
  "inspect",
  "sessions",
  "export",
  "import",
  "mcp",
];

/** `threadline demo --help`. */
export const DEMO_USAGE = `Usage: threadline demo

Runs a whole session offline: a local emulator plays the model, the agent works on a temporary copy of
examples/sample-project (fixes a bug, runs tests, compares two data exports), then prints what each compaction
tier did, the tokens, cache hits and cost, and where the transcript is. No key, no network.

Options:
  -h, --help   Show this help`;

/** `--help` of the session-store subcommands. */
export const STORE_COMMAND_USAGE: Readonly<Record<"sessions" | "export" | "import", string>> = {
  sessions: `Usage: threadline sessions [--project <key>] [--limit N] [--json]

Lists sessions (id, project, last activity, size, holder) from the store in use: JSONL files under
THREADLINE_HOME, or PostgreSQL when THREADLINE_STORE=postgres://…`,
  export: `Usage: threadline export <session-id> > file.jsonl

Writes one session's records, byte for byte, as a JSONL transcript on stdout (from either store).`,
  import: `Usage: threadline import <file.jsonl>

Copies a JSONL transcript into the store in use (THREADLINE_STORE), keeping every record; an existing id is refused.`,
};

/** Whether `argv` asks for help (`--help` or `-h` before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const argument of argv) {
    if (argument === "--") return false;
    if (argument === "--help" || argument === "-h") return true;
  }
  return false;
}

/** The subcommand `argv[0]` names, if any. */
export function subcommandOf(argv: readonly string[]): SubcommandName | undefined {
  return SUBCOMMANDS.find((name) => name === argv[0]);
}

/** The subcommand a mistyped first argument most likely meant, or undefined when `argv` reads as a prompt. */
export function mistypedSubcommand(argv: readonly string[]): SubcommandName | undefined {
  const [first, ...rest] = argv;
  if (first === undefined || first.startsWith("-") || /\s/.test(first)) return undefined;
  const match = closestMatch(first, SUBCOMMANDS);
  if (match === undefined) return undefined;
  // A flag's value ("--port 0") counts as an argument when it is one word.
  return rest.every(
    (argument, index) =>
      looksLikeArgument(argument) || (rest[index - 1]?.startsWith("-") === true && !/\s/.test(argument)),
  )
    ? match
    : undefined;
}

/** A flag, a path or a transcript/session reference, not prose. */
function looksLikeArgument(argument: string): boolean {
  if (argument.startsWith("-")) return true;
  if (/\s/.test(argument)) return false;
  return /[/\\]/.test(argument) || /\.[a-z0-9]{1,6}$/i.test(argument) || /^[0-9a-f-]{8,}$/i.test(argument);
}

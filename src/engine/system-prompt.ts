/**
 * The default system prompt, in segments. The first segment is static (cached across sessions); the
 * environment segment is stable for a session so the prefix stays byte-identical turn after turn. An output
 * style (docs/SETTINGS.md "Output styles") is chosen once, at session start, for the same reason: a change
 * mid-session waits for the next session or /clear.
 */
import os from "node:os";

const IDENTITY =
  "You are threadline, an interactive agent that helps people with software engineering tasks in their workspace.";
/** What Claude Code calls its coding instructions: an output style keeps them only when it says so. */
const CODING_INSTRUCTIONS = [
  "Use the tools to read, search, edit and run things rather than guessing. Prefer Read, Grep and Glob for",
  "looking around, Edit for changing existing files, Write for new files and Bash for running commands.",
].join("\n");
/** Instructions for efficient output: every output style but the default leaves them out, as in Claude Code. */
const EFFICIENT_OUTPUT = "Keep answers short and concrete. When a task is done, say what changed.";
/** How the Snip tool works: mechanics, not style, so kept under every output style. */
const SNIP_MECHANICS = [
  "User messages end with an [id:xxxxxx] tag; when earlier exchanges are no longer needed, you may remove",
  "them from the context with the Snip tool to keep the conversation small.",
].join("\n");

/** The static instructions segment. */
export const DEFAULT_INSTRUCTIONS = [IDENTITY, CODING_INSTRUCTIONS, EFFICIENT_OUTPUT, SNIP_MECHANICS].join("\n");

/** An output style as the system prompt uses it (memory/output-styles.ts finds them). */
export interface OutputStyleInstructions {
  name: string;
  /** Added at the end of the system prompt. */
  prompt: string;
  /** Whether the coding instructions stay (Claude Code's `keep-coding-instructions`). */
  keepCodingInstructions: boolean;
}

export interface SystemPromptOptions {
  cwd: string;
  /** Replaces the default instructions (`--system-prompt`); an output style then changes nothing. */
  systemPrompt?: string;
  /** Appended as its own segment (`--append-system-prompt`). */
  appendSystemPrompt?: string;
  /** Session start date (kept fixed for the session); defaults to today. */
  date?: Date;
  /** A style other than the default (`outputStyle`). Default none: the default instructions as they are. */
  outputStyle?: OutputStyleInstructions;
}

/** The instructions segment under an output style, as Claude Code changes its own (docs/SETTINGS.md). */
function styledInstructions(style: OutputStyleInstructions): string {
  return [
    'You are threadline, an interactive agent that helps people in their workspace according to the "Output Style"',
    "at the end of this prompt, which says how to respond.",
    ...(style.keepCodingInstructions ? [CODING_INSTRUCTIONS] : []),
    SNIP_MECHANICS,
  ].join("\n");
}

/** System prompt segments for a session. */
export function buildSystemPrompt(options: SystemPromptOptions): string[] {
  const date = (options.date ?? new Date()).toISOString().slice(0, 10);
  const environment = [
    "<env>",
    `Working directory: ${options.cwd}`,
    `Platform: ${os.platform()}`,
    `Today's date: ${date}`,
    "</env>",
  ].join("\n");
  const style = options.systemPrompt === undefined ? options.outputStyle : undefined;
  const instructions = options.systemPrompt ?? (style !== undefined ? styledInstructions(style) : DEFAULT_INSTRUCTIONS);
  const segments = [instructions, environment];
  if (style !== undefined) segments.push(`# Output Style: ${style.name}\n${style.prompt.trim()}`);
  if (options.appendSystemPrompt) segments.push(options.appendSystemPrompt);
  return segments;
}

/**
 * The default system prompt, in segments. The first segment is static (cached across sessions); the
 * environment segment is stable for a session so the prefix stays byte-identical turn after turn.
 */
import os from "node:os";

/** The static instructions segment. */
export const DEFAULT_INSTRUCTIONS = [
  "You are threadline, an interactive agent that helps people with software engineering tasks in their workspace.",
  "Use the tools to read, search, edit and run things rather than guessing. Prefer Read, Grep and Glob for",
  "looking around, Edit for changing existing files, Write for new files and Bash for running commands.",
  "Keep answers short and concrete. When a task is done, say what changed.",
  "User messages end with an [id:xxxxxx] tag; when earlier exchanges are no longer needed, you may remove",
  "them from the context with the Snip tool to keep the conversation small.",
].join("\n");

export interface SystemPromptOptions {
  cwd: string;
  /** Replaces the default instructions (`--system-prompt`). */
  systemPrompt?: string;
  /** Appended as its own segment (`--append-system-prompt`). */
  appendSystemPrompt?: string;
  /** Session start date (kept fixed for the session); defaults to today. */
  date?: Date;
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
  const segments = [options.systemPrompt ?? DEFAULT_INSTRUCTIONS, environment];
  if (options.appendSystemPrompt) segments.push(options.appendSystemPrompt);
  return segments;
}

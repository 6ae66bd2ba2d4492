/**
 * The default answers of the scripted model: an echo for main-loop turns without a scenario, and a
 * 9-section `<analysis>…</analysis><summary>…</summary>` for summary requests, built only from what that
 * request holds: the user's messages, the files and commands named in tool calls, the errors seen and the
 * last assistant text. An earlier summary found in a user message is carried forward the same way. So what a
 * client puts into its summary request decides what survives a compaction; file contents never do.
 */
import type { ApiMessage, ContentBlock } from "../content.js";
import { contentText } from "../content.js";

/** The nine sections of a compaction summary, in order. */
export const SUMMARY_SECTIONS: readonly string[] = [
  "Primary Request and Intent",
  "Key Technical Concepts",
  "Files and Code Sections",
  "Errors and fixes",
  "Problem Solving",
  "All user messages",
  "Pending Tasks",
  "Current Work",
  "Optional Next Step",
];

/** Longest user text quoted per message in the summary. */
const QUOTE_CHARS = 200;
/** Longest last-assistant text kept as "Current Work". */
const CURRENT_WORK_CHARS = 300;
/** Most errors and commands listed (the most recent ones). */
const MOST_LISTED = 20;

/** Input fields that name a file or a directory, as the common coding tools spell them. */
const PATH_FIELDS = ["file_path", "path", "notebook_path"];

/** The last user message's own text (empty when it only carries tool results). */
export function lastUserText(messages: readonly ApiMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "user") return contentText(message.content);
  }
  return "";
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** What a summary is built from: lists in first-seen order, without repeats. */
class Findings {
  readonly userMessages: string[] = [];
  readonly files = new Map<string, Set<string>>();
  readonly commands: string[] = [];
  readonly errors: string[] = [];
  lastAssistantText = "";

  addFile(path: string, how: string): void {
    const hows = this.files.get(path) ?? new Set<string>();
    hows.add(how);
    this.files.set(path, hows);
  }
}

function addUnique(list: string[], item: string): void {
  if (item !== "" && !list.includes(item)) list.push(item);
}

/** The lines of one section of an earlier `<summary>`, as this module writes them ("   - item"). */
function sectionItems(summary: string, title: string): string[] {
  const start = summary.indexOf(`. ${title}:`);
  if (start < 0) return [];
  const rest = summary.slice(start + title.length + 3);
  const end = rest.search(/\n\d+\. [A-Z][^\n]*:\n/);
  const body = end < 0 ? rest : rest.slice(0, end);
  return body
    .split("\n")
    .filter((line) => line.startsWith("   - "))
    .map((line) => line.slice(5));
}

function readEarlierSummary(text: string, findings: Findings): boolean {
  // Tagged, or (a client that unwrapped it) the bare sections this module writes.
  const match = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(text);
  const summary = match ? match[1]! : text.includes(". All user messages:") ? text : undefined;
  if (summary === undefined) return false;
  for (const item of sectionItems(summary, "All user messages")) addUnique(findings.userMessages, item);
  for (const item of sectionItems(summary, "Files and Code Sections")) {
    const parsed = /^(.*) \(([^()]*)\)$/.exec(item);
    if (parsed) for (const how of parsed[2]!.split(", ")) findings.addFile(parsed[1]!, how);
  }
  for (const item of sectionItems(summary, "Errors and fixes")) addUnique(findings.errors, item);
  for (const item of sectionItems(summary, "Problem Solving")) addUnique(findings.commands, item);
  return true;
}

function readBlock(block: ContentBlock, role: "user" | "assistant", findings: Findings): void {
  if (block.type === "tool_use") {
    const input = block.input as Record<string, unknown>;
    for (const field of PATH_FIELDS) {
      const value = input[field];
      if (typeof value === "string" && value !== "") findings.addFile(value, block.name);
    }
    if (typeof input.command === "string")
      addUnique(findings.commands, `${block.name}: ${oneLine(input.command, 200)}`);
    return;
  }
  if (block.type === "tool_result" && block.is_error === true) {
    const text = typeof block.content === "string" ? block.content : contentText(block.content ?? []);
    addUnique(findings.errors, oneLine(text.split("\n")[0] ?? "", 200));
    return;
  }
  if (block.type === "text" && role === "assistant" && block.text.trim() !== "")
    findings.lastAssistantText = block.text;
}

function read(messages: readonly ApiMessage[]): Findings {
  const findings = new Findings();
  // The last user message is the summary instruction itself, not part of the conversation.
  for (let index = 0; index < messages.length - 1; index++) {
    const message = messages[index]!;
    if (message.role === "user") {
      const text = contentText(message.content).trim();
      if (text !== "" && !readEarlierSummary(text, findings))
        addUnique(findings.userMessages, oneLine(text, QUOTE_CHARS));
    }
    if (typeof message.content === "string") {
      if (message.role === "assistant" && message.content.trim() !== "") findings.lastAssistantText = message.content;
      continue;
    }
    for (const block of message.content) readBlock(block, message.role, findings);
  }
  return findings;
}

function list(items: readonly string[]): string {
  return items.length === 0 ? "(none)" : `\n${items.map((item) => `   - ${item}`).join("\n")}`;
}

/** A 9-section summary of `messages` (the last one being the instruction), from their content only. */
export function defaultSummary(messages: readonly ApiMessage[]): string {
  const findings = read(messages);
  const files = [...findings.files].map(([path, hows]) => `${path} (${[...hows].join(", ")})`);
  const bodies: Record<string, string> = {
    "Primary Request and Intent": findings.userMessages[0] ?? "(no user request found)",
    "Files and Code Sections": list(files),
    "Errors and fixes": list(findings.errors.slice(-MOST_LISTED)),
    "Problem Solving": list(findings.commands.slice(-MOST_LISTED)),
    "All user messages": list(findings.userMessages),
    "Current Work":
      findings.lastAssistantText === "" ? "(none)" : oneLine(findings.lastAssistantText, CURRENT_WORK_CHARS),
  };
  const sections = SUMMARY_SECTIONS.map(
    (title, index) => `${index + 1}. ${title}:\n   ${bodies[title] ?? "(not covered by the scripted model)"}`,
  );
  return (
    "<analysis>\nThe scripted model lists what the request named: user messages, files and commands in tool calls, errors, the last answer.\n</analysis>\n\n" +
    `<summary>\n${sections.join("\n\n")}\n</summary>`
  );
}

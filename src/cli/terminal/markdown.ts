/**
 * Markdown for the terminal, rendered a completed line at a time so streamed answers appear as they come:
 * headings, emphasis, inline code, links, lists, quotes, rules, fenced code with light highlighting, and
 * paragraphs wrapped at word boundaries. Inline syntax is `marked`'s lexer (loaded lazily by
 * `loadMarkdown`, so start-up never pays for it); blocks are recognised here, line by line.
 */
import { visibleWidth } from "./text.js";

/** The part of `marked` used here. */
interface InlineToken {
  type: string;
  text?: string;
  href?: string;
  tokens?: InlineToken[];
}
type InlineLexer = (source: string) => InlineToken[];

let inlineLexer: InlineLexer | undefined;

/** Loads `marked` once; until it is loaded, inline markup is shown as typed. */
export async function loadMarkdown(): Promise<void> {
  if (inlineLexer !== undefined) return;
  const { Lexer } = await import("marked");
  inlineLexer = (source) => Lexer.lexInline(source) as InlineToken[];
}

/** Width used when the terminal does not say. */
export const DEFAULT_MARKDOWN_WIDTH = 100;

const KEYWORDS =
  /\b(const|let|var|function|return|if|else|for|while|import|export|from|class|new|async|await|def|fn|pub|struct|type|interface|true|false|null|undefined|None|self)\b/g;

interface Paint {
  bold(text: string): string;
  italic(text: string): string;
  code(text: string): string;
  dim(text: string): string;
  heading(text: string): string;
  keyword(text: string): string;
  string(text: string): string;
  comment(text: string): string;
  link(text: string): string;
}

const sgr =
  (open: string, close: string) =>
  (text: string): string =>
    `\x1b[${open}m${text}\x1b[${close}m`;

const COLOR: Paint = {
  bold: sgr("1", "22"),
  italic: sgr("3", "23"),
  code: sgr("36", "39"),
  dim: sgr("2", "22"),
  heading: (text) => `\x1b[1;35m${text}\x1b[22;39m`,
  keyword: sgr("35", "39"),
  string: sgr("32", "39"),
  comment: sgr("2", "22"),
  link: sgr("4;34", "24;39"),
};

const identity = (text: string): string => text;
const PLAIN: Paint = {
  bold: identity,
  italic: identity,
  code: identity,
  dim: identity,
  heading: identity,
  keyword: identity,
  string: identity,
  comment: identity,
  link: identity,
};

/** Renders streamed markdown: `push` text as it arrives, get back the lines it completed. */
export class MarkdownStream {
  readonly #paint: Paint;
  readonly #width: () => number;
  #pending = "";
  #fence: string | undefined;

  constructor(options: { color: boolean; width?: () => number }) {
    this.#paint = options.color ? COLOR : PLAIN;
    this.#width = options.width ?? (() => DEFAULT_MARKDOWN_WIDTH);
  }

  /** Whether the answer so far ended inside an open code fence. */
  get inFence(): boolean {
    return this.#fence !== undefined;
  }

  /** Adds streamed text; returns rendered output for every line it completed ("" when none). */
  push(text: string): string {
    this.#pending += text;
    const end = this.#pending.lastIndexOf("\n");
    if (end === -1) return "";
    const complete = this.#pending.slice(0, end);
    this.#pending = this.#pending.slice(end + 1);
    return complete
      .split("\n")
      .map((line) => `${this.#line(line)}\n`)
      .join("");
  }

  /** Renders what is left (a last line without its newline) and resets. */
  end(): string {
    const rest = this.#pending;
    this.#pending = "";
    const out = rest === "" ? "" : `${this.#line(rest)}\n`;
    this.#fence = undefined;
    return out;
  }

  #line(line: string): string {
    const paint = this.#paint;
    const fence = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(line);
    if (this.#fence !== undefined) {
      if (fence?.[1]?.startsWith(this.#fence.slice(0, 3)) && line.trim() === fence[1]) {
        this.#fence = undefined;
        return paint.dim("  └─");
      }
      return `  ${paint.dim("│")} ${highlight(line, paint)}`;
    }
    if (fence !== null) {
      this.#fence = fence[1] ?? "```";
      return paint.dim(`  ┌─${fence[2] ? ` ${fence[2]}` : ""}`);
    }
    const width = Math.max(20, this.#width() - 1);
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading !== null) {
      const text = this.#inline(heading[2] ?? "");
      return paint.heading(heading[1]?.length === 1 ? text.toUpperCase() : text);
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return paint.dim("─".repeat(Math.min(width, 40)));
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (quote !== null) return wrap(this.#inline(quote[1] ?? ""), width, paint.dim("│ "), paint.dim("│ "));
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item !== null) {
      const indent = item[1] ?? "";
      const marker = /\d/.test(item[2] ?? "") ? (item[2] ?? "") : "•";
      const task = /^\[( |x|X)\]\s+(.*)$/.exec(item[3] ?? "");
      const body = task !== null ? `${task[1] === " " ? "☐" : "☑"} ${task[2] ?? ""}` : (item[3] ?? "");
      const first = `${indent}${marker} `;
      return wrap(this.#inline(body), width, first, " ".repeat(visibleWidth(first)));
    }
    if (line.trim() === "") return "";
    return wrap(this.#inline(line), width, "", "");
  }

  #inline(source: string): string {
    if (inlineLexer === undefined) return source;
    return this.#tokens(inlineLexer(source));
  }

  #tokens(tokens: readonly InlineToken[]): string {
    const paint = this.#paint;
    return tokens
      .map((token) => {
        const inner = token.tokens !== undefined ? this.#tokens(token.tokens) : (token.text ?? "");
        switch (token.type) {
          case "strong":
            return paint.bold(inner);
          case "em":
            return paint.italic(inner);
          case "codespan":
            return paint.code(unescapeHtml(token.text ?? ""));
          case "del":
            return `~${inner}~`;
          case "link":
            return token.href !== undefined && token.href !== inner
              ? `${paint.link(inner)} ${paint.dim(`(${token.href})`)}`
              : paint.link(inner);
          case "br":
            return "\n";
          case "text":
          case "escape":
            return unescapeHtml(inner);
          default:
            return unescapeHtml(inner);
        }
      })
      .join("");
  }
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) =>
    name === "amp" ? "&" : name === "lt" ? "<" : name === "gt" ? ">" : name === "quot" ? '"' : "'",
  );
}

/** Light highlighting for a code line: comments, strings, a few common keywords. */
function highlight(line: string, paint: Paint = PLAIN): string {
  const comment = /(^|\s)(\/\/|#(?!!)|--)\s.*$/.exec(line);
  const code = comment !== null ? line.slice(0, comment.index + (comment[1]?.length ?? 0)) : line;
  const rest = comment !== null ? line.slice(code.length) : "";
  const parts = code.split(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)/);
  const painted = parts
    .map((part, index) =>
      index % 2 === 1 ? paint.string(part) : part.replace(KEYWORDS, (word) => paint.keyword(word)),
    )
    .join("");
  return painted + (rest !== "" ? paint.comment(rest) : "");
}

/** Wraps styled text at word boundaries to `width` columns; escape codes take no width. */
export function wrap(text: string, width: number, firstPrefix: string, restPrefix: string): string {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = lines.length === 0 ? firstPrefix : restPrefix;
    let used = visibleWidth(line);
    const start = used;
    for (const word of paragraph.split(/(?<=\s)(?=\S)/)) {
      const length = visibleWidth(word);
      if (used + length > width && used > start) {
        lines.push(line.trimEnd());
        line = restPrefix;
        used = visibleWidth(line);
      }
      line += word;
      used += length;
    }
    lines.push(line.trimEnd());
  }
  return lines.join("\n");
}

/**
 * A deliberately small reading of bash syntax for the read-only check: words, quotes, `|`/`||`/`&&`/`;`, and
 * the few redirections a read needs. Anything it cannot read exactly (substitutions, expansions, escapes,
 * backgrounding, heredocs, subshells, comments) makes the whole command unreadable, which callers treat as
 * "not read-only".
 */

/** One shell word after quote removal. */
export interface ShellWord {
  text: string;
  /** An unquoted `*`, `?` or `[`: bash would expand it to file names, which cannot be known here. */
  hasGlob: boolean;
}

/** A simple command between operators: its words and the files its input redirections read. */
export interface ShellSegment {
  words: ShellWord[];
  /** Targets of `< file`. */
  inputs: string[];
}

/** Where an output redirection may point and still change nothing. */
const DISCARD_TARGET = "/dev/null";

/** Characters that end an unquoted word. */
const WORD_END = new Set([" ", "\t", "|", "&", ";", "<", ">"]);
/** Unquoted characters this reader refuses: expansions, substitutions, escapes, grouping, new commands. */
const REFUSED_UNQUOTED = new Set(["$", "`", "\\", "(", ")", "{", "}", "\n", "\r"]);
/** Characters refused inside double quotes (they still expand there). */
const REFUSED_DOUBLE_QUOTED = new Set(["$", "`", "\\"]);

class Reader {
  index = 0;
  constructor(readonly text: string) {}
  peek(offset = 0): string | undefined {
    return this.text[this.index + offset];
  }
  skipBlanks(): void {
    while (this.peek() === " " || this.peek() === "\t") this.index++;
  }
}

/** Reads one word at the reader's position; undefined when it holds something refused. */
function readWord(reader: Reader): ShellWord | undefined {
  let text = "";
  let hasGlob = false;
  const start = reader.index;
  for (;;) {
    const character = reader.peek();
    if (character === undefined || WORD_END.has(character)) break;
    if (REFUSED_UNQUOTED.has(character)) return undefined;
    // A comment, or a tilde bash would expand (at the start, or after `=`/`:` in assignment-like words).
    if (character === "#" && reader.index === start) return undefined;
    if (character === "~" && (reader.index === start || /[=:]$/.test(text))) return undefined;
    if (character === "'") {
      const end = reader.text.indexOf("'", reader.index + 1);
      if (end < 0) return undefined;
      text += reader.text.slice(reader.index + 1, end);
      reader.index = end + 1;
      continue;
    }
    if (character === '"') {
      const end = reader.text.indexOf('"', reader.index + 1);
      if (end < 0) return undefined;
      const inner = reader.text.slice(reader.index + 1, end);
      if ([...inner].some((inside) => REFUSED_DOUBLE_QUOTED.has(inside))) return undefined;
      text += inner;
      reader.index = end + 1;
      continue;
    }
    if (character === "*" || character === "?" || character === "[") hasGlob = true;
    text += character;
    reader.index++;
  }
  return { text, hasGlob };
}

/**
 * Reads a redirection whose operator starts at the reader (after an optional fd number already taken). Input
 * redirections add their file to `inputs`; output ones are accepted only to `/dev/null` or as fd duplication
 * (`2>&1`). Returns false when the redirection could write or is not understood.
 */
function readRedirection(reader: Reader, segment: ShellSegment): boolean {
  const first = reader.peek();
  if (first === "<") {
    reader.index++;
    if (reader.peek() === "<" || reader.peek() === ">" || reader.peek() === "&") return false; // heredoc, <>, <&
    reader.skipBlanks();
    const target = readWord(reader);
    if (target === undefined || target.hasGlob || target.text === "") return false;
    segment.inputs.push(target.text);
    return true;
  }
  reader.index++; // ">" (or the "&" of "&>")
  if (first === "&") reader.index++;
  if (reader.peek() === ">") reader.index++;
  if (reader.peek() === "|") return false;
  if (reader.peek() === "&" && first !== "&") {
    reader.index++;
    const target = readWord(reader);
    return target !== undefined && /^(?:\d+|-)$/.test(target.text);
  }
  reader.skipBlanks();
  const target = readWord(reader);
  return target !== undefined && !target.hasGlob && target.text === DISCARD_TARGET;
}

/**
 * The simple commands of `command` in order, split at `|`, `||`, `&&` and `;`; undefined when the command uses
 * anything outside this reader's small grammar (see the file comment) or has an empty part.
 */
export function readShellSegments(command: string): ShellSegment[] | undefined {
  const reader = new Reader(command);
  const segments: ShellSegment[] = [];
  let segment: ShellSegment = { words: [], inputs: [] };
  const close = (): boolean => {
    if (segment.words.length === 0) return false;
    segments.push(segment);
    segment = { words: [], inputs: [] };
    return true;
  };
  for (;;) {
    reader.skipBlanks();
    const character = reader.peek();
    if (character === undefined) break;
    if (character === "|" || character === ";") {
      if (character === ";" && reader.peek(1) === ";") return undefined; // `;;` belongs to `case`
      reader.index += character === "|" && (reader.peek(1) === "|" || reader.peek(1) === "&") ? 2 : 1;
      if (!close()) return undefined;
      continue;
    }
    if (character === "&") {
      if (reader.peek(1) === "&") {
        reader.index += 2;
        if (!close()) return undefined;
        continue;
      }
      if (reader.peek(1) !== ">") return undefined; // backgrounding
      if (!readRedirection(reader, segment)) return undefined;
      continue;
    }
    if (character === "<" || character === ">") {
      if (!readRedirection(reader, segment)) return undefined;
      continue;
    }
    const word = readWord(reader);
    if (word === undefined) return undefined;
    const next = reader.peek();
    // `2>file`, `2>&1`: a number glued to a redirection is its fd, not a word.
    if ((next === ">" || next === "<") && /^\d+$/.test(word.text) && !word.hasGlob) {
      if (!readRedirection(reader, segment)) return undefined;
      continue;
    }
    segment.words.push(word);
  }
  if (segment.words.length === 0) return segments.length > 0 || segment.inputs.length > 0 ? undefined : [];
  segments.push(segment);
  return segments;
}

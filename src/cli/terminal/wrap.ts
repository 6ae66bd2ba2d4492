/**
 * Fitting styled lines to a narrow terminal: break at spaces where there are any, mid-word only when a word
 * is wider than the line, and start every continuation row with its prefix (a diff's gutter and sign, a code
 * block's `│`, an indent) so a wrapped line still reads as part of what it continues. Colour codes take no
 * width; the colours on at a break are closed before the prefix and opened again after it, so the gutter
 * keeps its own colour.
 */

/** One escape sequence (CSI or OSC) or one code point. */
const TOKEN = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|[\s\S]/gu;

/** SGR sequences that switch every attribute off. */
const RESET = /^\x1b\[0?m$/;

interface Piece {
  /** The raw text: code points and escape sequences. */
  text: string;
  /** Visible columns. */
  width: number;
}

/**
 * Wraps one line of styled text to `columns`. `restPrefix` starts every row after the first (styled as the
 * caller likes); a first row has no prefix added (the line carries its own). Returns at least one row.
 * `keepLongWords` (default false): a word wider than a row is left whole for the terminal to fold, so a
 * printed path or command copies as one line; rows of the live region must never overflow, so they break it.
 */
export function wrapLine(line: string, columns: number, restPrefix = "", keepLongWords = false): string[] {
  const prefixWidth = visible(restPrefix);
  // Never narrower than a few columns of content, so a long prefix in a tiny window still makes progress.
  const width = Math.max(columns, prefixWidth + 8);
  if (visible(line) <= width) return [line];
  const words = splitWords(line);
  const rows: string[] = [];
  let row = "";
  let used = 0;
  let active = "";
  const breakRow = () => {
    rows.push(`${row.trimEnd()}${active !== "" ? "\x1b[0m" : ""}`);
    // The prefix takes the colour the line is in (a removed line's sign stays red).
    row = active + restPrefix;
    used = prefixWidth;
  };
  for (const word of words) {
    const fresh = rows.length === 0 ? used === 0 : used === prefixWidth;
    // A word wider than any row (a path, a URL) stays where it is: moving it down gains nothing.
    const fitsARow = word.width <= width - prefixWidth;
    if (used + word.width > width && !fresh && (fitsARow || !keepLongWords)) {
      if (word.text.trim() === "") continue; // a space at the break is dropped
      breakRow();
    }
    for (const token of word.text.match(TOKEN) ?? []) {
      if (token.startsWith("\x1b")) {
        row += token;
        if (token.endsWith("m")) active = RESET.test(token) ? "" : active + token;
        continue;
      }
      if (used + 1 > width && !keepLongWords) breakRow();
      row += token;
      used += 1;
    }
  }
  rows.push(row);
  return rows;
}

/** Wraps each line of `text` (see `wrapLine`), joined with newlines. */
export function wrapText(text: string, columns: number, restPrefix = ""): string {
  return text
    .split("\n")
    .flatMap((line) => wrapLine(line, columns, restPrefix))
    .join("\n");
}

/** Words and the runs of spaces between them, each with its escape codes. */
function splitWords(line: string): Piece[] {
  const pieces: Piece[] = [];
  let current: Piece = { text: "", width: 0 };
  let inSpace = false;
  for (const token of line.match(TOKEN) ?? []) {
    if (token.startsWith("\x1b")) {
      current.text += token;
      continue;
    }
    const space = token === " ";
    if (space !== inSpace && current.width > 0) {
      pieces.push(current);
      current = { text: "", width: 0 };
    }
    inSpace = space;
    current.text += token;
    current.width += 1;
  }
  if (current.text !== "") pieces.push(current);
  return pieces;
}

function visible(text: string): number {
  let width = 0;
  for (const token of text.match(TOKEN) ?? []) if (!token.startsWith("\x1b")) width++;
  return width;
}

/**
 * The prefix of a wrapped line's continuation rows, read off the line itself: a diff line keeps its sign
 * under its gutter (`   12 + ` → `      + `), a code block or quote its `│`, a tool line its indent past the
 * mark (`  ⎿ ✓ ` → six spaces); anything else its leading spaces.
 */
export function continuationPrefix(line: string): string {
  const plain = line.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g, "");
  const diff = /^(\s*\d+ )([-+ ]) /.exec(plain);
  if (diff !== null) return `${" ".repeat(diff[1]?.length ?? 0)}${diff[2]} `;
  const gutter = /^(\s*│ )/.exec(plain);
  if (gutter !== null) return gutter[1] ?? "";
  const tool = /^(\s*(?:⎿ [✓✗] |⎿ |⏺ |[!✗✻·] ))/u.exec(plain);
  if (tool !== null) return " ".repeat([...(tool[1] ?? "")].length);
  return /^\s*/.exec(plain)?.[0] ?? "";
}

/**
 * Wraps each line of printed output to `columns`, each with the continuation prefix its own shape calls
 * for; words wider than a row (paths, commands to copy) are left whole.
 */
export function wrapOutput(text: string, columns: number): string {
  return text
    .split("\n")
    .flatMap((line) => wrapLine(line, columns, continuationPrefix(line), true))
    .join("\n");
}

/** Glob patterns (`**`, `*`, `?`, `[...]`, `{a,b}`) compiled to regular expressions over `/`-separated paths. */

const GLOB_CHARACTERS = /[*?[{]/;

function escapeRegExp(character: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(character) ? `\\${character}` : character;
}

/**
 * A regular expression matching whole relative paths against `pattern`. `*` and `?` stay within one path
 * segment (and match dotfiles); `**` spans segments, `**\/` also matching zero segments.
 */
export function globToRegExp(pattern: string, caseInsensitive = false): RegExp {
  let source = "";
  let braceDepth = 0;
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] ?? "";
    if (character === "*") {
      if (pattern[index + 1] === "*") {
        const atSegmentStart = index === 0 || pattern[index - 1] === "/";
        const followedBySlash = pattern[index + 2] === "/";
        if (atSegmentStart && followedBySlash) {
          source += "(?:.*/)?";
          index += 2;
        } else {
          source += ".*";
          index += 1;
        }
      } else {
        source += "[^/]*";
      }
    } else if (character === "?") {
      source += "[^/]";
    } else if (character === "[") {
      const close = pattern.indexOf("]", index + 2);
      if (close === -1) {
        source += "\\[";
      } else {
        let body = pattern.slice(index + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        source += `[${body.replace(/\\/g, "\\\\")}]`;
        index = close;
      }
    } else if (character === "{") {
      braceDepth++;
      source += "(?:";
    } else if (character === "}" && braceDepth > 0) {
      braceDepth--;
      source += ")";
    } else if (character === "," && braceDepth > 0) {
      source += "|";
    } else if (character === "\\" && index + 1 < pattern.length) {
      source += escapeRegExp(pattern[index + 1] ?? "");
      index += 1;
    } else {
      source += escapeRegExp(character);
    }
  }
  source += ")".repeat(braceDepth);
  return new RegExp(`^${source}$`, caseInsensitive ? "i" : "");
}

/**
 * Splits a pattern into the literal directory it starts with and the glob part after it:
 * `src/**\/*.ts` → `{ base: "src", rest: "**\/*.ts" }`. The base may be absolute or empty.
 */
export function splitGlobBase(pattern: string): { base: string; rest: string } {
  const segments = pattern.split("/");
  const literal: string[] = [];
  while (segments.length > 1 && !GLOB_CHARACTERS.test(segments[0] ?? "")) literal.push(segments.shift() ?? "");
  const base = literal.join("/") || (pattern.startsWith("/") ? "/" : "");
  return { base, rest: segments.join("/") };
}

/**
 * A Bash command as the simple commands it chains: `git add x && git commit -m y` → two parts. Split on
 * unquoted `&&`, `||`, `;` and `|` with quotes respected; anything whose parts cannot be known exactly —
 * substitutions (`$(…)`, backticks, `$VAR`), subshells and groups, redirections, escapes, backgrounding, new
 * lines — gives undefined, and such a command is never allowed part by part (docs/SETTINGS.md, "Chained
 * commands"). Deny rules do not use this: they match any part of anything (permission-rules.ts).
 */

/** Unquoted characters that make the parts unknowable. */
const REFUSED_UNQUOTED = new Set(["$", "`", "(", ")", "{", "}", "<", ">", "\\", "\n", "\r"]);
/** Characters that still expand inside double quotes. */
const REFUSED_DOUBLE_QUOTED = new Set(["$", "`", "\\"]);

/** The parts of a chain, each trimmed and non-empty; undefined when the command is not a plain chain. */
export function splitBashChain(command: string): string[] | undefined {
  const parts: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  const close = (): boolean => {
    const part = current.trim();
    current = "";
    if (part === "") return false;
    parts.push(part);
    return true;
  };
  for (let index = 0; index < command.length; index++) {
    const character = command[index] ?? "";
    if (quote === "'") {
      if (character === "'") quote = undefined;
      current += character;
      continue;
    }
    if (quote === '"') {
      if (REFUSED_DOUBLE_QUOTED.has(character)) return undefined;
      if (character === '"') quote = undefined;
      current += character;
      continue;
    }
    if (character === "'" || character === '"') {
      quote = character;
      current += character;
      continue;
    }
    if (REFUSED_UNQUOTED.has(character)) return undefined;
    const next = command[index + 1];
    if ((character === "&" && next === "&") || (character === "|" && next === "|")) {
      if (!close()) return undefined;
      index++;
      continue;
    }
    // A lone `&` runs its left side in the background: not a chain this reading vouches for.
    if (character === "&") return undefined;
    if (character === "|" || character === ";") {
      if (!close()) return undefined;
      continue;
    }
    current += character;
  }
  if (quote !== undefined) return undefined;
  // A trailing `;` is allowed (`a; b;`), an empty part anywhere else is not.
  if (current.trim() === "" && parts.length > 0 && /;\s*$/.test(command)) return parts;
  if (!close()) return undefined;
  return parts;
}

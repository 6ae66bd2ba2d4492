/**
 * Fail closed (docs/SETTINGS.md, "A file that does not parse"): when a settings file is not JSON, its deny rules
 * are looked for anyway, so a typo elsewhere in the file does not quietly lift them. First the whole file read
 * leniently (comments and trailing commas removed, as people write them), then the `"deny": [ … ]` list alone.
 */

/** `text` without `//` and `/* *\/` comments (outside strings) and without commas before `}` or `]`. */
function lenientJson(text: string): string {
  let out = "";
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] ?? "";
    if (inString) {
      out += character;
      if (character === "\\") {
        out += text[index + 1] ?? "";
        index++;
      } else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') {
      inString = true;
      out += character;
      continue;
    }
    if (character === "/" && text[index + 1] === "/") {
      while (index < text.length && text[index] !== "\n") index++;
      out += "\n";
      continue;
    }
    if (character === "/" && text[index + 1] === "*") {
      const end = text.indexOf("*/", index + 2);
      index = end < 0 ? text.length : end + 1;
      continue;
    }
    out += character;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The file's `permissions.deny` value if it can be recovered from text that is not JSON; else undefined. */
export function salvageDenyRules(text: string): unknown[] | undefined {
  const whole = tryParse(lenientJson(text));
  if (typeof whole === "object" && whole !== null) {
    const deny = (whole as { permissions?: { deny?: unknown } }).permissions?.deny;
    if (Array.isArray(deny)) return deny;
    return undefined;
  }
  // The list alone: every `"deny": [ … ]` in the file (a string holding `]` ends the match early: nothing kept).
  const lists = [...text.matchAll(/"deny"\s*:\s*(\[[^\]]*\])/g)].map((match) => tryParse(lenientJson(match[1] ?? "")));
  if (lists.length === 0 || !lists.every(Array.isArray)) return undefined;
  return (lists as unknown[][]).flat();
}

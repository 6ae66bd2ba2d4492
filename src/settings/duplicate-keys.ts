/**
 * Settings text read strictly where a guard lives (docs/TRUST.md, "Fail closed"). `JSON.parse` keeps the last of
 * two equal keys, so a second `"permissions"` block silently drops the first one's deny rules; this finds the
 * first repeated key (with its line) so the file can be refused instead. Also: the line a parse error points at.
 */

/** 1-based line of `position` in `text`. */
export function lineAt(text: string, position: number): number {
  let line = 1;
  for (let index = 0; index < position && index < text.length; index++) if (text[index] === "\n") line++;
  return line;
}

/** The line `JSON.parse` stopped at (its message gives a position), or the first line holding `fallback`. */
export function parseErrorLine(text: string, error: unknown, fallback = "deny"): number | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return lineAt(text, Number(position));
  const lineColumn = /line (\d+)/.exec(message)?.[1];
  if (lineColumn !== undefined) return Number(lineColumn);
  const at = text.indexOf(fallback);
  return at < 0 ? undefined : lineAt(text, at);
}

/**
 * The first key that appears twice in one object of `text` (valid JSON), with its line and the path of the
 * object holding it (`permissions` for a repeated `deny`); undefined when every key is unique.
 */
export function findDuplicateKey(text: string): { key: string; line: number; path: string } | undefined {
  // One frame per open object or array: the keys seen so far (objects only) and the key that opened it.
  const frames: Array<{ keys: Set<string> | undefined; name: string }> = [];
  let pendingKey: string | undefined;
  let index = 0;
  while (index < text.length) {
    const character = text[index];
    if (character === '"') {
      const start = index;
      index++;
      while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
      const raw = text.slice(start, index + 1);
      index++;
      let after = index;
      while (after < text.length && /\s/.test(text[after] ?? "")) after++;
      const frame = frames.at(-1);
      if (text[after] === ":" && frame?.keys !== undefined) {
        const key = JSON.parse(raw) as string;
        if (frame.keys.has(key))
          return {
            key,
            line: lineAt(text, start),
            path: frames
              .map((each) => each.name)
              .filter((name) => name !== "")
              .join("."),
          };
        frame.keys.add(key);
        pendingKey = key;
      }
      continue;
    }
    if (character === "{" || character === "[") {
      frames.push({ keys: character === "{" ? new Set() : undefined, name: pendingKey ?? "" });
      pendingKey = undefined;
    } else if (character === "}" || character === "]") frames.pop();
    else if (character === ",") pendingKey = undefined;
    index++;
  }
  return undefined;
}

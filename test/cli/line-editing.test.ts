import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EditBuffer } from "../../src/cli/terminal/edit-buffer.js";
import { editorRows } from "../../src/cli/terminal/input.js";
import { type Key, KeyDecoder } from "../../src/cli/terminal/keys.js";

function type(buffer: EditBuffer, keys: Key[]): string[] {
  const submitted: string[] = [];
  for (const key of keys) if (buffer.apply(key) === "submit") submitted.push(buffer.take());
  return submitted;
}

describe("KeyDecoder", () => {
  it("decodes text, editing keys, Alt/Shift-Enter and a lone Esc", () => {
    const decoder = new KeyDecoder();
    expect(decoder.feed("hi\x1b[D\x7f\r")).toEqual([
      { type: "text", text: "hi" },
      { type: "left" },
      { type: "backspace" },
      { type: "enter" },
    ]);
    expect(decoder.feed("\x1b\r\x1b[13;2u\x1b[27;2;13~")).toEqual([
      { type: "newline" },
      { type: "newline" },
      { type: "newline" },
    ]);
    expect(decoder.feed("\x1b")).toEqual([{ type: "escape" }]);
    expect(decoder.feed("\x03")).toEqual([{ type: "interrupt" }]);
  });

  it("a bracketed paste is one key whatever the chunking, newlines included", () => {
    const pasted = "one\r\ntwo\nthree \x1b[A not a key";
    const stream = `ab\x1b[200~${pasted}\x1b[201~cd`;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 6 }), (cuts) => {
        const decoder = new KeyDecoder();
        const points = [0, ...cuts.sort((a, b) => a - b), stream.length];
        // A read of ESC alone is the Esc key by definition; terminals never split a sequence that way.
        fc.pre(points.every((point, index) => index === 0 || stream.slice(points[index - 1], point) !== "\x1b"));
        const keys: Key[] = [];
        for (let index = 1; index < points.length; index++) {
          keys.push(...decoder.feed(stream.slice(points[index - 1], points[index])));
        }
        const pastes = keys.filter((key) => key.type === "paste");
        expect(pastes).toEqual([{ type: "paste", text: "one\ntwo\nthree \x1b[A not a key" }]);
        const text = keys.map((key) => (key.type === "text" ? key.text : "")).join("");
        expect(text).toBe("abcd");
      }),
    );
  });
});

describe("EditBuffer", () => {
  it("a paste with newlines stays one prompt until Enter", () => {
    const buffer = new EditBuffer();
    expect(type(buffer, [{ type: "paste", text: "a\nb\nc" }, { type: "enter" }])).toEqual(["a\nb\nc"]);
  });

  it("a trailing backslash continues the prompt on a new line", () => {
    const buffer = new EditBuffer();
    const keys: Key[] = [
      { type: "text", text: "first \\" },
      { type: "enter" },
      { type: "text", text: "second" },
      { type: "enter" },
    ];
    expect(type(buffer, keys)).toEqual(["first \nsecond"]);
  });

  it("up and down walk the history and come back to the draft", () => {
    const buffer = new EditBuffer();
    type(buffer, [{ type: "text", text: "one" }, { type: "enter" }, { type: "text", text: "two" }, { type: "enter" }]);
    buffer.apply({ type: "text", text: "draft" });
    buffer.apply({ type: "up" });
    expect(buffer.text).toBe("two");
    buffer.apply({ type: "up" });
    expect(buffer.text).toBe("one");
    buffer.apply({ type: "down" });
    buffer.apply({ type: "down" });
    expect(buffer.text).toBe("draft");
  });

  it("the cursor always stays inside the text", () => {
    const keys: Key[] = [
      { type: "text", text: "ab" },
      { type: "newline" },
      { type: "left" },
      { type: "right" },
      { type: "up" },
      { type: "down" },
      { type: "home" },
      { type: "end" },
      { type: "backspace" },
      { type: "delete" },
      { type: "delete-word" },
      { type: "kill-line-before" },
      { type: "kill-line-after" },
      { type: "word-left" },
      { type: "word-right" },
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...keys), { maxLength: 40 }), (sequence) => {
        const buffer = new EditBuffer();
        for (const key of sequence) {
          buffer.apply(key);
          expect(buffer.cursor).toBeGreaterThanOrEqual(0);
          expect(buffer.cursor).toBeLessThanOrEqual(buffer.text.length);
        }
      }),
    );
  });
});

describe("editorRows", () => {
  it("wraps long lines and puts the cursor on the row and column it belongs to", () => {
    const text = `${"x".repeat(25)}\nshort`;
    const { rows, cursorRow, cursorColumn } = editorRows(text, 12, 20);
    expect(rows).toEqual(["x".repeat(17), "x".repeat(8), "short"]);
    expect(cursorRow).toBe(0);
    expect(cursorColumn).toBe(2 + 12);
    expect(editorRows(text, text.length, 20)).toMatchObject({ cursorRow: 2, cursorColumn: 2 + 5 });
    expect(editorRows("x".repeat(17), 17, 20)).toMatchObject({ rows: ["x".repeat(17), ""], cursorRow: 1 });
  });
});

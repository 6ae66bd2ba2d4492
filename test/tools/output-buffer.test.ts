import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OutputBuffer, truncateMiddle } from "../../src/tools/shell/output-buffer.js";

describe("OutputBuffer", () => {
  it("returns short output unchanged", () => {
    expect(truncateMiddle("hello", 1000)).toBe("hello");
  });

  it("keeps head and tail within the cap, whatever the chunking", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 700 }), { maxLength: 40 }),
        fc.integer({ min: 300, max: 2000 }),
        (chunks, cap) => {
          const buffer = new OutputBuffer(cap);
          for (const chunk of chunks) buffer.append(chunk);
          const whole = chunks.join("");
          const text = buffer.text();
          expect(buffer.totalChars).toBe(whole.length);
          if (whole.length <= cap) {
            expect(text).toBe(whole);
          } else {
            expect(text.length).toBeLessThanOrEqual(cap);
            const head = Math.ceil((cap - 200) / 2);
            const tail = Math.floor((cap - 200) / 2);
            expect(text.startsWith(whole.slice(0, head))).toBe(true);
            expect(text.endsWith(whole.slice(whole.length - tail))).toBe(true);
            expect(text).toContain(
              `${whole.length - head - tail} characters truncated from the middle of ${whole.length}`,
            );
          }
        },
      ),
    );
  });
});

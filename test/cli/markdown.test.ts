import { beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown, MarkdownStream, wrap } from "../../src/cli/terminal/markdown.js";

beforeAll(() => loadMarkdown());

function render(source: string, width = 40): string {
  const stream = new MarkdownStream({ color: false, width: () => width });
  return stream.push(source) + stream.end();
}

describe("terminal markdown", () => {
  it("drops the markup of headings, emphasis, code and lists", () => {
    const out = render("# Title\n## Part\nSome **bold**, _em_ and `code`.\n- one\n2. two\n> quoted\n");
    expect(out).toBe("TITLE\nPart\nSome bold, em and code.\n• one\n2. two\n│ quoted\n");
  });

  it("frames fenced code and keeps its text as written", () => {
    expect(render('```js\nconst a = "**x**";\n```\n')).toBe('  ┌─ js\n  │ const a = "**x**";\n  └─\n');
  });

  it("renders only completed lines while streaming", () => {
    const stream = new MarkdownStream({ color: false });
    expect(stream.push("Hello **wor")).toBe("");
    expect(stream.push("ld**\nnext")).toBe("Hello world\n");
    expect(stream.end()).toBe("next\n");
  });

  it("wraps at word boundaries and indents list continuations", () => {
    expect(wrap("aaa bbb ccc ddd", 8, "", "")).toBe("aaa bbb\nccc ddd");
    // One column is kept spare (width 24 wraps at 23), so a full row never makes the terminal wrap by itself.
    expect(render("- alpha beta gamma delta epsilon zeta eta theta iota", 24)).toBe(
      "• alpha beta gamma\n  delta epsilon zeta\n  eta theta iota\n",
    );
  });

  it("colours with escape codes only when asked", () => {
    const stream = new MarkdownStream({ color: true });
    expect(stream.push("**b**\n")).toBe("\x1b[1mb\x1b[22m\n");
  });
});

/**
 * The summarizer summarizes what it was sent: files and commands named in the request's tool calls, its
 * user messages, errors and last answer appear; a file the request never named does not; an earlier
 * summary carried in the request is carried forward.
 */

import { defaultSummary } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import type { ApiMessage } from "../../src/messages/index.js";

const INSTRUCTION: ApiMessage = { role: "user", content: "Summarize the conversation so far." };

function readOf(id: string, path: string): ApiMessage[] {
  return [
    { role: "assistant", content: [{ type: "tool_use", id, name: "Read", input: { file_path: path } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "     1\tsecret body 7781" }] },
  ];
}

describe("defaultSummary", () => {
  const conversation: ApiMessage[] = [
    { role: "user", content: "Fix the parser in src/parse.ts." },
    ...readOf("toolu_1", "src/parse.ts"),
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_2", name: "Bash", input: { command: "npm test" } }] },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_2", content: "1 failing\n\nExit code 1", is_error: true }],
    },
    { role: "assistant", content: [{ type: "text", text: "The tokenizer drops the last token." }] },
  ];

  it("is built from the request: files, commands, errors, user messages, last answer", () => {
    const summary = defaultSummary([...conversation, INSTRUCTION]);
    expect(summary).toContain("src/parse.ts (Read)");
    expect(summary).toContain("Bash: npm test");
    expect(summary).toContain("1 failing");
    expect(summary).toContain("Fix the parser in src/parse.ts.");
    expect(summary).toContain("The tokenizer drops the last token.");
    // File contents are never summarized: only what the client itself carries survives.
    expect(summary).not.toContain("secret body 7781");
    expect(summary).not.toContain("Summarize the conversation");
  });

  it("a file path absent from the summary request is absent from the summary", () => {
    const withLexer = defaultSummary([...conversation, ...readOf("toolu_3", "src/lexer.ts").slice(0, 2), INSTRUCTION]);
    const without = defaultSummary([...conversation, INSTRUCTION]);
    expect(withLexer).toContain("src/lexer.ts");
    expect(without).not.toContain("src/lexer.ts");
  });

  it("carries an earlier summary's files and messages forward", () => {
    const earlier = defaultSummary([
      { role: "user", content: "First, read the lexer." },
      ...readOf("toolu_3", "src/lexer.ts"),
      INSTRUCTION,
    ]);
    const later = defaultSummary([
      { role: "user", content: `This session is being continued.\n\n${earlier}` },
      ...conversation.slice(1),
      INSTRUCTION,
    ]);
    expect(later).toContain("src/lexer.ts (Read)");
    expect(later).toContain("First, read the lexer.");
    expect(later).toContain("src/parse.ts (Read)");
  });
});

/**
 * Memory-file text beside tool results stays a block of its own: folded into a tool_result it would be
 * deleted with that result by a later cache edit (microcompact's cached path), and the user's rules with it.
 * Any other standalone reminder is still folded into the last result.
 */
import { describe, expect, it } from "vitest";
import { createToolResultEntry, toolResultBlock, toolUseBlock } from "../../src/messages/index.js";
import { normalizeMessagesForAPI } from "../../src/request/normalize/index.js";
import { assistant, attachment, context, user } from "./helpers.js";

function afterToolResult(text: string) {
  const call = assistant(toolUseBlock("toolu_1", "Read", { file_path: "src/x/a.ts" }), "msg_1");
  const result = createToolResultEntry(context(), [toolResultBlock("toolu_1", "export const a = 1;")], call.uuid);
  return normalizeMessagesForAPI([user("read it"), call, result, attachment(text)]).at(-1)!;
}

describe("memory text beside tool results", () => {
  it("is never folded into a tool_result", () => {
    const memory =
      "Contents of /w/src/x/CLAUDE.md (project instructions, checked into the codebase):\n\nNested rule N1.";
    // Mutation caught: the memory exception removed from fold-system-reminders (the text lands in the result).
    expect(afterToolResult(memory).content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: "export const a = 1;" },
      { type: "text", text: `<system-reminder>\n${memory}\n</system-reminder>` },
    ]);
  });

  it("while another reminder is folded as before", () => {
    const content = afterToolResult("You have used 12K tokens since your last snip.").content;
    expect(content).toHaveLength(1);
    expect(content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
  });
});

/**
 * The emulator recognises a compaction-summary request the way any server-side model would: the last user
 * message asks for a summary of the conversation, in anyone's words — never by threadline's own prompt text
 * (packages/emulator/README.md, "Counting tokens"; the package imports nothing of src/).
 */
import { classifyRequest, type EmulatorRequest } from "@threadline/emulator";
import { describe, expect, it } from "vitest";

const TOOLS = [{ name: "Read", description: "read a file", input_schema: { type: "object" } }];

function lastUserSays(text: string): EmulatorRequest {
  return {
    model: "claude-sonnet-4-6",
    max_tokens: 1_000,
    tools: TOOLS,
    messages: [
      { role: "user", content: "Fix the failing test." },
      { role: "assistant", content: "Looking." },
      { role: "user", content: text },
    ],
  } as unknown as EmulatorRequest;
}

describe("summary requests, by any client's wording", () => {
  it("a request asking for a summary of the conversation is a summary request, whoever phrased it", () => {
    expect(classifyRequest(lastUserSays("Please summarize our conversation so far."))).toBe("summary");
    expect(classifyRequest(lastUserSays("Write a concise summary of this conversation for a new session."))).toBe(
      "summary",
    );
    expect(classifyRequest(lastUserSays("Summarise the conversation above."))).toBe("summary");
  });

  it("a message that already holds a summary (the first request after a compaction mid-turn) is a turn, not a request for one", () => {
    // Claude Code 2.1's continuation message, and a plain one: neither asks for anything to be summarised.
    const continued =
      "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n<summary>\n1. Primary Request and Intent: fix the test\n</summary>";
    expect(classifyRequest(lastUserSays(continued))).toBe("main");
    expect(classifyRequest(lastUserSays("Here is a summary of the conversation so far: we fixed two imports."))).toBe(
      "main",
    );
  });

  it("a tag from one client's prompt alone (<analysis>) or an ordinary turn is not", () => {
    expect(classifyRequest(lastUserSays("<analysis>"))).toBe("main");
    expect(classifyRequest(lastUserSays("Now read src/index.ts and fix the import."))).toBe("main");
  });
});

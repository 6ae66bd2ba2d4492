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

  it("a tag from one client's prompt alone (<analysis>) or an ordinary turn is not", () => {
    expect(classifyRequest(lastUserSays("<analysis>"))).toBe("main");
    expect(classifyRequest(lastUserSays("Now read src/index.ts and fix the import."))).toBe("main");
  });
});

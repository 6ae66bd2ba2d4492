/**
 * AskUserQuestion (docs/TOOLS.md "AskUserQuestion"): the person's answers come back in Claude Code's words; with
 * no one to ask (print mode: no question channel) the result is an error saying so, on the emulator, in the
 * request the model gets next.
 */
import type { ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { subagentTools } from "../../src/engine/subagent.js";
import { GENERAL_PURPOSE_AGENT } from "../../src/engine/subagent-types.js";
import { defaultToolRuntime, deferredBuiltinTools, type QuestionChannel } from "../../src/tools/index.js";
import { askUserQuestionTool } from "../../src/tools/questions/ask-user-question-tool.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { makeContext } from "./tool-test-context.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const QUESTION = {
  question: "Which database should the cache use?",
  header: "Database",
  options: [
    { label: "SQLite", description: "One file, no server." },
    { label: "PostgreSQL", description: "The server the app already runs." },
  ],
};

/** The tool_result blocks of a request body, in order: [text, is_error]. */
function results(body: unknown): Array<[string, boolean]> {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const out: Array<[string, boolean]> = [];
  for (const message of messages) {
    if (message.role !== "user" || !Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; content?: unknown; is_error?: boolean }>)
      if (block.type === "tool_result")
        out.push([
          typeof block.content === "string" ? block.content : JSON.stringify(block.content),
          block.is_error === true,
        ]);
  }
  return out;
}

describe("AskUserQuestion", () => {
  it("returns the person's answers, question by question, in Claude Code's words", async () => {
    const asked: string[] = [];
    const questions: QuestionChannel = {
      async ask(list) {
        asked.push(...list.map((each) => `${each.header}: ${each.options.map((option) => option.label).join("/")}`));
        return { [QUESTION.question]: "PostgreSQL" };
      },
    };
    const context = makeContext(process.cwd(), { runtime: { ...defaultToolRuntime(), questions } });
    const output = await askUserQuestionTool.call({ questions: [QUESTION] }, context);
    expect(asked).toEqual(["Database: SQLite/PostgreSQL"]);
    expect(output.isError).not.toBe(true);
    expect(output.content).toBe(
      'User has answered your questions: "Which database should the cache use?"="PostgreSQL". You can now continue with the user\'s answers in mind.',
    );
  });

  it("takes 1-4 questions of 2-4 options each, as Claude Code's schema does", () => {
    const parse = (input: unknown) => askUserQuestionTool.inputSchema.safeParse(input).success;
    expect(parse({ questions: [QUESTION] })).toBe(true);
    expect(parse({ questions: [{ ...QUESTION, multiSelect: true }] })).toBe(true);
    expect(parse({ questions: [] })).toBe(false);
    expect(parse({ questions: [QUESTION, QUESTION, QUESTION, QUESTION, QUESTION] })).toBe(false);
    expect(parse({ questions: [{ ...QUESTION, options: [QUESTION.options[0]] }] })).toBe(false);
  });

  it("is a deferred built-in after SendMessage, and no subagent gets it (a subagent has no person)", () => {
    const names = deferredBuiltinTools().map((tool) => tool.name);
    expect(names.slice(-2)).toEqual(["SendMessage", "AskUserQuestion"]);
    expect(deferredBuiltinTools({ webSearch: true }).at(-1)?.name).toBe("WebSearch");
    expect(subagentTools(deferredBuiltinTools(), GENERAL_PURPOSE_AGENT).map((tool) => tool.name)).not.toContain(
      "AskUserQuestion",
    );
  });

  // Mutation caught: answering "" (or anything not an error) when there is no channel.
  it("with no one to ask (print mode), the model gets an error result saying no one can answer", async () => {
    const scenario: ScenarioStep[] = [
      { content: [{ type: "tool_use", name: "ToolSearch", input: { query: "select:AskUserQuestion" } }] },
      { content: [{ type: "tool_use", name: "AskUserQuestion", input: { questions: [QUESTION] } }] },
      "I will use SQLite and say so.",
    ];
    harness = await startHarness({ scenario }, { deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("add a cache"))).reason).toBe("completed");
    const seen = results(harness.emulator.requests.filter((entry) => entry.path === "/v1/messages").at(-1)?.body);
    expect(seen[1]?.[1]).toBe(true);
    expect(seen[1]?.[0]).toMatch(/^No one can answer: this session has no person to ask/);
  });
});

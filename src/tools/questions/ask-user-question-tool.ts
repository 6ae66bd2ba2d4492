/**
 * AskUserQuestion, Claude Code's tool for asking the person one to four multiple-choice questions (2 to 4 options
 * each, one or several chosen, "Other" always open to a typed answer) when a choice is theirs to make. The
 * answers arrive through the session's question channel (`ToolRuntime.questions`); where there is none — print
 * mode, a library session without one — no one can answer, and the result says so as an error so the model
 * decides on its own or ends its turn with the question.
 */
import * as z from "zod";
import type { Tool, ToolContext, ToolOutput } from "../types.js";

export const ASK_USER_QUESTION_NAME = "AskUserQuestion";

const optionSchema = z.strictObject({
  label: z
    .string()
    .describe(
      "The display text for this option that the user will see and select. Should be concise (1-5 words) and clearly describe the choice.",
    ),
  description: z
    .string()
    .describe(
      "Explanation of what this option means or what will happen if chosen. Useful for providing context about trade-offs or implications.",
    ),
});

const questionSchema = z.strictObject({
  question: z
    .string()
    .describe("The complete question to ask the user. Should be clear, specific, and end with a question mark."),
  header: z
    .string()
    .describe(
      'Very short label displayed as a chip/tag (max 12 chars). Examples: "Auth method", "Library", "Approach".',
    ),
  options: z
    .array(optionSchema)
    .min(2)
    .max(4)
    .describe(
      "The available choices for this question. Must have 2-4 options. Each option should be a distinct, mutually exclusive choice (unless multiSelect is enabled). There should be no 'Other' option, that will be provided automatically.",
    ),
  multiSelect: z
    .boolean()
    .optional()
    .describe("Set to true to allow the user to select multiple options instead of just one."),
});

export const askUserQuestionInputSchema = z.strictObject({
  questions: z.array(questionSchema).min(1).max(4).describe("Questions to ask the user (1-4 questions)"),
  answers: z.record(z.string(), z.string()).optional().describe("User answers collected by the permission component"),
});

export type AskUserQuestionInput = z.infer<typeof askUserQuestionInputSchema>;

/** The result when no one can answer: an error, so the model does not take silence for an answer. */
export const NO_ONE_TO_ASK =
  "No one can answer: this session has no person to ask (print mode or a session without a question channel). " +
  "Decide with what you know and say which assumption you made, or end your turn with the question in your reply.";

const DESCRIPTION = `Asks the user multiple-choice questions while you work: to gather preferences or requirements, to clarify an ambiguous instruction, to get a decision between implementation choices, or to offer directions to take.

- 1-4 questions per call, each with 2-4 options; the user can always answer "Other" with their own text.
- Set multiSelect to true when more than one option may be chosen.
- If you recommend an option, put it first and end its label with "(Recommended)".
- Where no one can answer (non-interactive runs), the result is an error: decide yourself and say so.`;

function answered(answers: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(answers).map(([question, answer]) => `"${question}"="${answer}"`);
  return `User has answered your questions: ${pairs.join(", ")}. You can now continue with the user's answers in mind.`;
}

export const askUserQuestionTool: Tool<AskUserQuestionInput> = {
  name: ASK_USER_QUESTION_NAME,
  description: DESCRIPTION,
  inputSchema: askUserQuestionInputSchema,
  // It changes nothing; asking is the point, so it runs in plan mode and needs no approval of its own.
  isReadOnly: () => true,
  compactable: false,
  // A subagent has no person of its own to ask.
  traits: { forSubagents: false },
  deferLoading: true,
  async call(input: AskUserQuestionInput, context: ToolContext): Promise<ToolOutput> {
    const channel = context.runtime?.questions;
    if (channel === undefined) return { content: NO_ONE_TO_ASK, isError: true };
    const answers = await channel.ask(input.questions, context.signal);
    if (answers === undefined)
      return {
        content: "The user dismissed the questions without answering. Ask in your reply instead.",
        isError: true,
      };
    return { content: answered(answers), display: { kind: "questions", questions: input.questions, answers } };
  },
};

/** Questions for the person: AskUserQuestion. The names used outside src/tools/. */
export type { AskedQuestion, QuestionChannel } from "./ask-user-question-tool.js";

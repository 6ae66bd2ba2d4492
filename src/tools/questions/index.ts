/** Questions for the person: AskUserQuestion. The names used outside src/tools/ (its channel's types live in types.ts). */
export type { AskedQuestion, QuestionChannel } from "../types.js";

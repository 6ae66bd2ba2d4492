/**
 * The Snip tool: the model names user messages by their `[id:xxxxxx]` tags and the engine records a
 * `snip_boundary` with the full uuids removed. Nothing is deleted: the API view applies the boundary.
 */
import * as z from "zod";
import { createSystemEntry, isMessageEntry } from "../../messages/index.js";
import type { Tool, ToolContext, ToolOutput } from "../../tools/index.js";
import { planSnip, SNIP_TOOL_NAME } from "./snip-plan.js";

export const snipInputSchema = z.strictObject({
  ids: z
    .array(z.string().min(1))
    .min(1)
    .describe("Short ids of user messages to remove, as shown in their [id:xxxxxx] tags"),
});
export type SnipInput = z.infer<typeof snipInputSchema>;

const DESCRIPTION = `Removes earlier messages from your context to keep it small. Each user message ends with a tag like [id:ab12cd]; pass the ids of messages you no longer need.
- Removing a tool result also removes the tool call it answers (and the rest of that reply), so pairs stay whole.
- The person still sees the full history; only your context shrinks.
- Unknown ids fail the whole call and nothing is removed.`;

export interface SnipToolOptions {
  /** Clock for the boundary record. Default `() => new Date()`. */
  now?: () => Date;
}

/** Creates the Snip tool. It needs `ToolContext.session`; without it the call is an error result. */
export function createSnipTool(options: SnipToolOptions = {}): Tool<SnipInput> {
  const now = options.now ?? (() => new Date());
  return {
    name: SNIP_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: snipInputSchema,
    isReadOnly: () => false,
    compactable: false,
    traits: { forSubagents: false },
    async call(input: SnipInput, context: ToolContext): Promise<ToolOutput> {
      const session = context.session;
      if (session === undefined) return { content: "Snip is unavailable: no session is attached.", isError: true };
      const entries = session.entries();
      const plan = planSnip(entries, input.ids, { currentToolUseId: context.toolUseId });
      if (!plan.ok) return { content: plan.message, isError: true };
      let parentUuid: string | null = null;
      for (let index = entries.length - 1; index >= 0; index--) {
        const entry = entries[index]!;
        if (isMessageEntry(entry) && !entry.isSidechain) {
          parentUuid = entry.uuid;
          break;
        }
      }
      const count = plan.removedUuids.length;
      session.append(
        createSystemEntry(
          { sessionId: session.sessionId, parentUuid, now: now() },
          "snip_boundary",
          `Snipped ${count} message${count === 1 ? "" : "s"} (~${plan.tokensFreed} tokens)`,
          { snipMetadata: { removedUuids: plan.removedUuids } },
        ),
      );
      const extra = count - plan.requestedUuids.length;
      return {
        content:
          `Snipped ${plan.requestedUuids.length} message${plan.requestedUuids.length === 1 ? "" : "s"}` +
          (extra > 0 ? ` and ${extra} paired tool call/result entr${extra === 1 ? "y" : "ies"}` : "") +
          `; about ${plan.tokensFreed} tokens freed.`,
        display: { kind: "snip", removedUuids: plan.removedUuids, tokensFreed: plan.tokensFreed },
      };
    },
  };
}

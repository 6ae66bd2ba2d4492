/**
 * Helpers for tests that script the emulator's model and read back what it was sent: a tool_use step, the system
 * text of a logged request, whether it is a subagent's, the last tool result it carried, and polling for
 * something a background task does later. Shared by the background-agent, SendMessage, isolation, Monitor and
 * scheduled-prompt tests.
 */
import type { EmulatorRequest } from "@threadline/emulator";
import { SUBAGENT_PROMPT_PREFIX } from "../src/engine/subagent.js";

/** A scripted turn that calls one tool. */
export const use = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: "tool_use" as const, name, input }],
});

/** The system prompt of a logged request, as text. */
export function systemText(request: EmulatorRequest): string {
  if (typeof request.system === "string") return request.system;
  return (request.system ?? []).map((block) => block.text).join("\n");
}

/** Whether a logged request is a subagent's (its system prompt starts the subagent way). */
export const isSubagent = (request: EmulatorRequest) => systemText(request).includes(SUBAGENT_PROMPT_PREFIX);

/** The text of the last tool_result in a request (what the model saw last). */
export function lastToolResult(request: EmulatorRequest): string {
  const content = request.messages.at(-1)?.content;
  const blocks = Array.isArray(content) ? content : [];
  const inner = blocks.findLast((block) => block.type === "tool_result");
  const value = inner?.type === "tool_result" ? inner.content : undefined;
  return typeof value === "string" ? value : JSON.stringify(value ?? "");
}

/** Polls `check` every `stepMs` until it holds or `ms` pass; its last answer. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000, stepMs = 25): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  return check();
}

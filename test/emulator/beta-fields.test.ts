/**
 * Each beta-only request field is accepted under its beta and rejected without it, as the API does. The beta
 * names here are literals (from the SDK's `AnthropicBeta` list and from what Claude Code 2.1.332 sent while
 * recording), never read from the validator's own tables, so a wrong table entry fails this test.
 *
 * Mutations this catches (each applied once while writing it):
 * - dropping `per-turn-control-2026-07-01` from SYSTEM_MESSAGE_BETA_FIELDS fails "output_config (Claude Code's name)";
 * - mapping `compact_20260112` to the context-management beta fails "compact_20260112 edit" (accepted without
 *   compact-2026-01-12);
 * - removing the BETA_BLOCKS check in block-rules fails "tool_addition block" (accepted without a beta).
 */

import { validateRequest } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { readSdkRequestShapes } from "./sdk-request-shapes.js";

const base = (extra: Record<string, unknown>, messages?: unknown[]) => ({
  model: "claude-opus-5-5",
  max_tokens: 1024,
  messages: messages ?? [{ role: "user", content: "Hello" }],
  ...extra,
});

const conversation = (system: Record<string, unknown>) => [
  { role: "user", content: "Hello" },
  { role: "assistant", content: "Hi." },
  { role: "system", ...system },
  { role: "user", content: "Go on." },
];

interface BetaCase {
  name: string;
  /** The top-level field or message path the violation names. */
  path: string;
  body: Record<string, unknown>;
  /** A beta that unlocks it. */
  beta: string;
}

const LOOKUP_TOOL = { name: "lookup", description: "Looks a word up", input_schema: { type: "object" } };

const CASES: BetaCase[] = [
  {
    name: "clear_thinking edit",
    path: "context_management",
    body: base({ context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] } }),
    beta: "context-management-2025-06-27",
  },
  {
    name: "compact_20260112 edit",
    path: "context_management",
    body: base({
      context_management: {
        edits: [
          { type: "compact_20260112", trigger: { type: "input_tokens", value: 100_000 }, pause_after_compaction: true },
        ],
      },
    }),
    beta: "compact-2026-01-12",
  },
  {
    name: "mcp_servers",
    path: "mcp_servers",
    body: base({ mcp_servers: [{ type: "url", url: "https://mcp.example.com/sse", name: "example" }] }),
    beta: "mcp-client-2025-11-20",
  },
  {
    name: "compaction (on demand)",
    path: "compaction",
    body: base({ compaction: { type: "summarize" } }),
    beta: "compact-2026-09-04",
  },
  {
    name: "output_format",
    path: "output_format",
    body: base({ output_format: { type: "json_schema", schema: { type: "object" } } }),
    beta: "structured-outputs-2025-11-13",
  },
  { name: "thread", path: "thread", body: base({ thread: { type: "create" } }), beta: "message-threads-2026-08-12" },
  {
    name: "fallback_credit_token",
    path: "fallback_credit_token",
    body: base({ fallback_credit_token: { token: "tok", mode: "strict" } }),
    beta: "fallback-credit-2026-07-01",
  },
  {
    name: "fallbacks",
    path: "fallbacks",
    body: base({ fallbacks: "default" }),
    beta: "server-side-fallback-2026-07-01",
  },
  {
    name: "system message output_config (the SDK's name)",
    path: "messages.2.output_config",
    body: base({}, conversation({ content: [], output_config: { effort: "low" } })),
    beta: "mid-conversation-output-config-2026-07-01",
  },
  {
    name: "system message output_config (Claude Code's name)",
    path: "messages.2.output_config",
    body: base({}, conversation({ content: "Environment: linux", output_config: { effort: "medium" } })),
    beta: "per-turn-control-2026-07-01",
  },
  {
    name: "system message clear_at",
    path: "messages.2.clear_at",
    body: base({}, conversation({ content: "Only for this turn.", clear_at: "next_user_message" })),
    beta: "mid-conversation-system-clear-at-2026-08-21",
  },
  {
    name: "tool_addition block",
    path: "messages.2.content.0.type",
    body: base(
      { tools: [{ ...LOOKUP_TOOL, defer_loading: true }] },
      conversation({ content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "lookup" } }] }),
    ),
    beta: "mid-conversation-tool-changes-2026-07-01",
  },
  {
    name: "tool_removal block",
    path: "messages.2.content.0.type",
    body: base(
      { tools: [LOOKUP_TOOL] },
      conversation({ content: [{ type: "tool_removal", tool: { type: "tool_reference", name: "lookup" } }] }),
    ),
    beta: "mid-conversation-tool-changes-2026-07-01",
  },
  {
    name: "compaction block sent back",
    path: "messages.1.content.0.type",
    body: base({}, [
      { role: "user", content: "Hello" },
      { role: "assistant", content: [{ type: "compaction", content: "Summary of the work so far." }] },
      { role: "user", content: "Go on." },
    ]),
    beta: "compact-2026-01-12",
  },
];

describe("each beta-only field is accepted only under its beta", () => {
  it.each(CASES)("$name", ({ body, path, beta }) => {
    const without = validateRequest(body, { betas: [] });
    expect(without.map((violation) => violation.message.split(":")[0])).toContain(path);
    expect(validateRequest(body, { betas: ["unrelated-beta-2099-01-01"] }).length).toBeGreaterThan(0);
    expect(validateRequest(body, { betas: [beta] })).toEqual([]);
  });

  it("an inline tool definition in a tool_addition needs inline-tools-2026-09-15 on top of the tool-changes beta", () => {
    const body = base(
      { tools: [LOOKUP_TOOL] },
      conversation({
        content: [
          { type: "tool_addition", tool: { type: "tool_definition", definition: { ...LOOKUP_TOOL, name: "late" } } },
        ],
      }),
    );
    const toolChanges = "mid-conversation-tool-changes-2026-07-01";
    expect(validateRequest(body, { betas: [toolChanges] }).map((violation) => violation.message)).toEqual([
      "messages.2.content.0.tool.type: Input tag 'tool_definition' found using 'type' does not match any of the expected tags",
    ]);
    expect(validateRequest(body, { betas: [toolChanges, "inline-tools-2026-09-15"] })).toEqual([]);
  });

  it("a plain mid-conversation system message needs no beta at all", () => {
    expect(validateRequest(base({}, conversation({ content: "Answer in French." })), { betas: [] })).toEqual([]);
  });

  it("a system message with neither content nor output_config is rejected", () => {
    const messages = validateRequest(base({}, conversation({ content: [] })), { betas: [] }).map((v) => v.message);
    expect(messages).toEqual(["messages.2: system messages must carry content or output_config"]);
  });

  it("covers every top-level field the SDK's beta params add (a new one needs a case here)", () => {
    const sdk = readSdkRequestShapes();
    const betaOnly = sdk.betaMessagesParams.filter((field) => !sdk.messagesParams.includes(field));
    // The SDK names no beta for these two: `betas` becomes the header, `billing_policy` is an account matter.
    const anyBeta = ["betas", "billing_policy"];
    const covered = new Set([...CASES.map((entry) => entry.path), ...anyBeta]);
    expect(betaOnly.filter((field) => !covered.has(field))).toEqual([]);
    for (const field of anyBeta) {
      const body = base({ [field]: field === "betas" ? ["x"] : { type: "billing_policy" } });
      expect(validateRequest(body, { betas: [] }).map((violation) => violation.message)).toEqual([
        `${field}: Extra inputs are not permitted`,
      ]);
    }
  });
});

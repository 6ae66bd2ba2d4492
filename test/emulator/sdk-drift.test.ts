/**
 * Drift guard: the emulator must accept every request field the pinned SDK knows, the beta params included
 * (`BetaMessageCreateParams`, `BetaSystemMessageParam`, tool changes, context edits, thread, diagnostics,
 * on-demand compaction). The SDK's .d.ts files are walked with the TypeScript compiler (sdk-request-shapes.ts)
 * and compared with the validator's lists (packages/emulator/src/validator/known-fields.ts); a field the SDK has and the
 * validator lacks fails the test, and every beta the validator names must be one the SDK lists or a recorded
 * real client sent. Which beta unlocks which field is checked by behaviour in beta-fields.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BETA_BLOCKS,
  BETA_FIELDS,
  BLOCK_KEYS,
  COMPACTION_CONFIG_KEYS,
  CONTEXT_EDIT_BETAS,
  CONTEXT_EDIT_KEYS,
  COUNT_TOKENS_FIELDS,
  CUSTOM_TOOL_KEYS,
  DIAGNOSTICS_KEYS,
  MESSAGES_FIELDS,
  SERVER_TOOL_KEYS,
  SYSTEM_MESSAGE_BETA_FIELDS,
  SYSTEM_MESSAGE_BLOCKS,
  SYSTEM_MESSAGE_KEYS,
  THREAD_KEYS,
  TOOL_CHANGE_BETA_REFERENCES,
  TOOL_CHANGE_REFERENCE_KEYS,
  TOOL_RESULT_CONTENT_KEYS,
} from "../../packages/emulator/src/validator/known-fields.js";
import { readSdkRequestShapes, type SdkRequestShapes } from "./sdk-request-shapes.js";

/** The validator's lists, as the drift check reads them (a copy can drop a field to prove the check bites). */
interface ValidatorLists {
  messages: ReadonlySet<string>;
  countTokens: ReadonlySet<string>;
  beta: ReadonlySet<string>;
  customTool: ReadonlySet<string>;
  serverTool: ReadonlySet<string>;
  blocks: Readonly<Record<string, ReadonlySet<string>>>;
  toolResultContent: Readonly<Record<string, ReadonlySet<string>>>;
  roles: ReadonlySet<string>;
  systemMessage: ReadonlySet<string>;
  systemMessageBlocks: ReadonlySet<string>;
  toolChangeReferences: Readonly<Record<string, ReadonlySet<string>>>;
  contextEdits: Readonly<Record<string, ReadonlySet<string>>>;
  thread: Readonly<Record<string, ReadonlySet<string>>>;
  diagnostics: ReadonlySet<string>;
  compaction: ReadonlySet<string>;
}

const VALIDATOR: ValidatorLists = {
  messages: MESSAGES_FIELDS,
  countTokens: COUNT_TOKENS_FIELDS,
  beta: new Set(BETA_FIELDS.keys()),
  customTool: CUSTOM_TOOL_KEYS,
  serverTool: SERVER_TOOL_KEYS,
  blocks: BLOCK_KEYS,
  toolResultContent: {
    ...TOOL_RESULT_CONTENT_KEYS,
    text: BLOCK_KEYS.text!,
    image: BLOCK_KEYS.image!,
    document: BLOCK_KEYS.document!,
  },
  roles: new Set(["user", "assistant", "system"]),
  systemMessage: new Set([...SYSTEM_MESSAGE_KEYS, ...SYSTEM_MESSAGE_BETA_FIELDS.keys()]),
  systemMessageBlocks: SYSTEM_MESSAGE_BLOCKS,
  toolChangeReferences: TOOL_CHANGE_REFERENCE_KEYS,
  contextEdits: CONTEXT_EDIT_KEYS,
  thread: THREAD_KEYS,
  diagnostics: DIAGNOSTICS_KEYS,
  compaction: COMPACTION_CONFIG_KEYS,
};

/** Every SDK request field the validator does not know, as "where: field" lines. */
function drift(sdk: SdkRequestShapes, lists: ValidatorLists): string[] {
  const missing: string[] = [];
  const need = (where: string, fields: readonly string[], allowed: ReadonlySet<string> | undefined) => {
    for (const field of fields) if (!allowed?.has(field)) missing.push(`${where}: ${field}`);
  };
  const withBetas = new Set([...lists.messages, ...lists.beta]);
  need("MessageCreateParams", sdk.messagesParams, lists.messages);
  need("beta MessageCreateParams", sdk.betaMessagesParams, withBetas);
  need("MessageCountTokensParams", sdk.countTokensParams, lists.countTokens);
  need("beta MessageCountTokensParams", sdk.betaCountTokensParams, new Set([...lists.countTokens, ...lists.beta]));
  for (const [type, fields] of sdk.tools) {
    need(`tool ${type}`, fields, type === "custom" ? lists.customTool : lists.serverTool);
  }
  for (const [type, fields] of sdk.blocks) need(`block ${type}`, fields, lists.blocks[type]);
  for (const [type, fields] of sdk.toolResultContent)
    need(`tool_result content ${type}`, fields, lists.toolResultContent[type]);
  need("message role", sdk.roles, lists.roles);
  need("system message", sdk.systemMessage, lists.systemMessage);
  for (const [type, fields] of sdk.systemMessageBlocks) {
    need("system message block", [type], lists.systemMessageBlocks);
    need(`system message block ${type}`, fields, lists.blocks[type]);
  }
  for (const [type, fields] of sdk.toolChangeReferences)
    need(`tool change ${type}`, fields, lists.toolChangeReferences[type]);
  for (const [type, fields] of sdk.contextEdits) need(`context edit ${type}`, fields, lists.contextEdits[type]);
  for (const [type, fields] of sdk.thread) need(`thread ${type}`, fields, lists.thread[type]);
  need("diagnostics", sdk.diagnostics, lists.diagnostics);
  need("compaction", sdk.compaction, lists.compaction);
  return missing;
}

const sdk = readSdkRequestShapes();

/** Every beta a recorded real client sent (test/fixtures/real-clients), for names the SDK does not list. */
function recordedBetas(): Set<string> {
  const folder = join(import.meta.dirname, "..", "fixtures", "real-clients");
  const names = new Set<string>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".json"))) {
    const fixture = JSON.parse(readFileSync(join(folder, file), "utf8")) as { headers: Record<string, string> };
    for (const beta of (fixture.headers["anthropic-beta"] ?? "").split(",")) if (beta) names.add(beta.trim());
  }
  return names;
}

describe(`the validator knows every request field of @anthropic-ai/sdk ${sdk.version}`, () => {
  it("reads a plausible set of shapes from the SDK (the walk itself works)", () => {
    expect(sdk.messagesParams).toEqual(expect.arrayContaining(["model", "max_tokens", "messages", "output_config"]));
    expect(sdk.betaMessagesParams).toContain("context_management");
    expect(sdk.tools.get("custom")).toEqual(
      expect.arrayContaining(["defer_loading", "eager_input_streaming", "strict"]),
    );
    expect(sdk.blocks.get("tool_result")).toEqual(expect.arrayContaining(["tool_use_id", "content", "is_error"]));
    expect(sdk.blocks.size).toBeGreaterThan(15);
    expect(sdk.toolResultContent.has("tool_reference")).toBe(true);
    expect(sdk.roles.sort()).toEqual(["assistant", "system", "user"]);
  });

  it("no field the SDK defines is missing from the validator", () => {
    expect(drift(sdk, VALIDATOR)).toEqual([]);
  });

  it("names only betas the SDK lists or a recorded real client sent", () => {
    const known = new Set([...sdk.betaNames, ...recordedBetas()]);
    const named = [
      ...BETA_FIELDS.values(),
      ...SYSTEM_MESSAGE_BETA_FIELDS.values(),
      ...BETA_BLOCKS.values(),
      ...TOOL_CHANGE_BETA_REFERENCES.values(),
      ...CONTEXT_EDIT_BETAS.values(),
    ].flatMap((betas) => betas ?? []);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((beta) => !known.has(beta))).toEqual([]);
  });

  it("fails when a beta field is removed from the validator's lists", () => {
    const without = (list: ReadonlySet<string>, field: string) => new Set([...list].filter((key) => key !== field));
    // The mutation: `output_config` dropped from the system message's beta fields (Claude Code's first request).
    expect(drift(sdk, { ...VALIDATOR, systemMessage: without(VALIDATOR.systemMessage, "output_config") })).toEqual([
      "system message: output_config",
    ]);
    expect(drift(sdk, { ...VALIDATOR, beta: without(VALIDATOR.beta, "thread") })).toEqual([
      "beta MessageCreateParams: thread",
    ]);
    expect(drift(sdk, { ...VALIDATOR, systemMessageBlocks: without(SYSTEM_MESSAGE_BLOCKS, "tool_addition") })).toEqual([
      "system message block: tool_addition",
    ]);
    const edits = {
      ...CONTEXT_EDIT_KEYS,
      compact_20260112: without(CONTEXT_EDIT_KEYS.compact_20260112!, "pause_after_compaction"),
    };
    expect(drift(sdk, { ...VALIDATOR, contextEdits: edits })).toEqual([
      "context edit compact_20260112: pause_after_compaction",
    ]);
    const references = {
      ...TOOL_CHANGE_REFERENCE_KEYS,
      tool_definition: without(TOOL_CHANGE_REFERENCE_KEYS.tool_definition!, "definition"),
    };
    expect(drift(sdk, { ...VALIDATOR, toolChangeReferences: references })).toEqual([
      "tool change tool_definition: definition",
    ]);
  });

  it("fails when a field is removed from the validator's lists", () => {
    const without = (list: ReadonlySet<string>, field: string) => new Set([...list].filter((key) => key !== field));
    expect(drift(sdk, { ...VALIDATOR, messages: without(MESSAGES_FIELDS, "output_config") })).toEqual([
      "MessageCreateParams: output_config",
      "beta MessageCreateParams: output_config",
    ]);
    expect(drift(sdk, { ...VALIDATOR, customTool: without(CUSTOM_TOOL_KEYS, "defer_loading") })).toEqual([
      "tool custom: defer_loading",
    ]);
    const blocks = { ...BLOCK_KEYS, tool_result: without(BLOCK_KEYS.tool_result!, "is_error") };
    expect(drift(sdk, { ...VALIDATOR, blocks })).toEqual(["block tool_result: is_error"]);
    const { search_result: _dropped, ...noSearch } = BLOCK_KEYS;
    expect(drift(sdk, { ...VALIDATOR, blocks: noSearch }).filter((line) => line.startsWith("block "))).toContain(
      "block search_result: type",
    );
  });
});

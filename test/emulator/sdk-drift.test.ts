/**
 * Drift guard: the emulator must accept every request field the pinned SDK knows. The SDK's .d.ts files are
 * walked with the TypeScript compiler (sdk-request-shapes.ts) and compared with the validator's lists
 * (src/emulator/validator/known-fields.ts); a field the SDK has and the validator lacks fails the test.
 */
import { describe, expect, it } from "vitest";
import {
  BETA_FIELDS,
  BLOCK_KEYS,
  COUNT_TOKENS_FIELDS,
  CUSTOM_TOOL_KEYS,
  MESSAGES_FIELDS,
  SERVER_TOOL_KEYS,
  TOOL_RESULT_CONTENT_KEYS,
} from "../../src/emulator/validator/known-fields.js";
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
  return missing;
}

const sdk = readSdkRequestShapes();

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

/**
 * Reads the request shapes the pinned `@anthropic-ai/sdk` defines, from its .d.ts files, with the TypeScript
 * compiler API: top-level params, tool fields, content blocks and their fields, message roles.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import ts from "typescript";

/** Field names of each request shape the SDK defines. */
export interface SdkRequestShapes {
  version: string;
  messagesParams: string[];
  betaMessagesParams: string[];
  countTokensParams: string[];
  betaCountTokensParams: string[];
  /** Tool `type` → its fields ("custom" for the custom tool). */
  tools: Map<string, string[]>;
  /** Content block `type` → its fields (regular and beta params). */
  blocks: Map<string, string[]>;
  /** Blocks a tool_result's content may hold → their fields. */
  toolResultContent: Map<string, string[]>;
  roles: string[];
  /** Fields of the beta `role: "system"` message (`BetaSystemMessageParam`). */
  systemMessage: string[];
  /** Blocks a system message's content may hold → their fields. */
  systemMessageBlocks: Map<string, string[]>;
  /** The `tool` of a tool_addition / tool_removal, by type → its fields. */
  toolChangeReferences: Map<string, string[]>;
  /** `context_management.edits` entries, by type → their fields. */
  contextEdits: Map<string, string[]>;
  /** `thread`, by type → its fields. */
  thread: Map<string, string[]>;
  /** Fields of `diagnostics` and of the on-demand `compaction` parameter. */
  diagnostics: string[];
  compaction: string[];
  /** Every beta name the SDK's `AnthropicBeta` lists. */
  betaNames: string[];
}

export function readSdkRequestShapes(): SdkRequestShapes {
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json; its main entry sits at the package root.
  const root = dirname(require.resolve("@anthropic-ai/sdk"));
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const regular = join(root, "resources", "messages", "messages.d.ts");
  const beta = join(root, "resources", "beta", "messages", "messages.d.ts");
  const betaIndex = join(root, "resources", "beta", "beta.d.ts");
  const program = ts.createProgram([regular, beta, betaIndex], { strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const exported = (file: string, name: string): ts.Type => {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((entry) => entry.name === name);
    if (!symbol) throw new Error(`the SDK no longer exports ${name} from ${file}`);
    return checker.getDeclaredTypeOfSymbol(symbol);
  };
  const members = (type: ts.Type): readonly ts.Type[] => (type.isUnion() ? type.types : [type]);
  const fields = (type: ts.Type): string[] =>
    type
      .getProperties()
      .map((property) => property.name)
      .sort();
  const literals = (type: ts.Type, property: string): string[] => {
    const symbol = type.getProperty(property);
    if (!symbol) return [];
    const propertyType = checker.getNonNullableType(checker.getTypeOfSymbol(symbol));
    return members(propertyType)
      .filter((member): member is ts.StringLiteralType => member.isStringLiteral())
      .map((member) => member.value);
  };
  const byTag = (types: readonly ts.Type[], into: Map<string, string[]>): void => {
    for (const type of types) {
      for (const tag of literals(type, "type")) {
        const known = into.get(tag) ?? [];
        into.set(tag, [...new Set([...known, ...fields(type)])].sort());
      }
    }
  };
  const tools = new Map<string, string[]>();
  byTag(members(exported(regular, "ToolUnion")), tools);
  byTag(members(exported(beta, "BetaToolUnion")), tools);
  const blocks = new Map<string, string[]>();
  byTag(members(exported(regular, "ContentBlockParam")), blocks);
  byTag(members(exported(beta, "BetaContentBlockParam")), blocks);
  const toolResultContent = new Map<string, string[]>();
  for (const [file, name] of [
    [regular, "ToolResultBlockParam"],
    [beta, "BetaToolResultBlockParam"],
  ] as const) {
    const content = exported(file, name).getProperty("content");
    if (!content) continue;
    for (const member of members(checker.getNonNullableType(checker.getTypeOfSymbol(content)))) {
      const element = checker.getIndexTypeOfType(member, ts.IndexKind.Number);
      if (element) byTag(members(element), toolResultContent);
    }
  }
  /** Element types of an array-typed (or union-of-arrays) property, by tag. */
  const elementsOf = (type: ts.Type, property: string): Map<string, string[]> => {
    const into = new Map<string, string[]>();
    const symbol = type.getProperty(property);
    if (!symbol) return into;
    for (const member of members(checker.getNonNullableType(checker.getTypeOfSymbol(symbol)))) {
      const element = checker.getIndexTypeOfType(member, ts.IndexKind.Number);
      if (element) byTag(members(element), into);
    }
    return into;
  };
  const propertyUnion = (type: ts.Type, property: string): Map<string, string[]> => {
    const into = new Map<string, string[]>();
    const symbol = type.getProperty(property);
    if (symbol) byTag(members(checker.getNonNullableType(checker.getTypeOfSymbol(symbol))), into);
    return into;
  };
  const systemMessage = exported(beta, "BetaSystemMessageParam");
  const toolChangeReferences = propertyUnion(exported(beta, "BetaRequestToolAdditionBlock"), "tool");
  for (const [tag, keys] of propertyUnion(exported(beta, "BetaRequestToolRemovalBlock"), "tool")) {
    toolChangeReferences.set(tag, [...new Set([...(toolChangeReferences.get(tag) ?? []), ...keys])].sort());
  }
  const thread = new Map<string, string[]>();
  byTag(members(exported(beta, "BetaMessageThreadParam")), thread);
  const betaNames = members(exported(betaIndex, "AnthropicBeta"))
    .filter((member): member is ts.StringLiteralType => member.isStringLiteral())
    .map((member) => member.value);
  return {
    version,
    systemMessage: fields(systemMessage),
    systemMessageBlocks: elementsOf(systemMessage, "content"),
    toolChangeReferences,
    contextEdits: elementsOf(exported(beta, "BetaContextManagementConfig"), "edits"),
    thread,
    diagnostics: fields(exported(beta, "BetaDiagnosticsParam")),
    compaction: fields(exported(beta, "BetaCompactionConfig")),
    betaNames,
    messagesParams: fields(exported(regular, "MessageCreateParamsBase")),
    betaMessagesParams: fields(exported(beta, "MessageCreateParamsBase")),
    countTokensParams: fields(exported(regular, "MessageCountTokensParams")),
    betaCountTokensParams: fields(exported(beta, "MessageCountTokensParams")),
    tools,
    blocks,
    toolResultContent,
    roles: members(exported(regular, "MessageParam")).flatMap((type) => literals(type, "role")),
  };
}

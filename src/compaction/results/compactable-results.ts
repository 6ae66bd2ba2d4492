/**
 * Finding tool results in an API view, and projecting the time-based clears onto it.
 * Both microcompact paths work from this one list, so they agree on what "compactable" and "recent" mean.
 */
import type { AssistantEntry, MessageEntry, ToolResultBlock, ToolUseBlock, UserEntry } from "../../messages/index.js";
import { estimateBlockTokens } from "../../messages/index.js";
import { DerivedCache, filterGrowing, sharedPrefixLength } from "../../timeline/index.js";
import { clearedPlaceholder } from "./cleared-placeholder.js";

/**
 * What a cleared tool result's content becomes when nothing is known about the call; with its tool_use in
 * view the placeholder also says what was there and how to get it back (cleared-placeholder.ts). Either way
 * it is byte-stable: every turn projects the same text, and it always starts with this text minus its "]".
 */
export const CLEARED_TOOL_RESULT_TEXT = "[Old tool result content cleared]";

/** What every placeholder starts with (the generic one and the descriptive ones alike). */
export const CLEARED_TOOL_RESULT_PREFIX = "[Old tool result content cleared";

/** One tool_result block of the view and what answered it. */
export interface ToolResultRef {
  toolUseId: string;
  /** Name of the tool whose tool_use this answers; undefined when the tool_use is not in the view. */
  toolName: string | undefined;
  /** The user entry holding the result. */
  entryUuid: string;
  /** Index of that entry in the view. */
  viewIndex: number;
  /** Estimated tokens of the block as it stands in the view. */
  tokens: number;
  /** Estimated tokens of the block once cleared, with the placeholder that would replace it (computed on first read). */
  readonly clearedTokens: number;
  /** The file its call named (`file_path`, or `notebook_path`); undefined when none or the call is not in view. */
  readonly filePath: string | undefined;
}

/** Placeholder tokens per block, keyed by its call's id (a block and its call give the same placeholder every turn). */
const clearedTokensMemo = new DerivedCache<ToolResultBlock, number>();

/**
 * A result found in the view. A class, so `clearedTokens` is one getter on the prototype (only the results a
 * planner weighs build their placeholder): an object literal with its own getter, a closure per result on
 * every pass, made bench/pipeline-overhead.ts's turn at 10,000 entries 12.2-12.8 ms (best of 21) against
 * 8.7-9.0 ms before it; as a class, 9.3-10.4 ms.
 */
class FoundResult implements ToolResultRef {
  constructor(
    readonly toolUseId: string,
    readonly toolName: string | undefined,
    readonly entryUuid: string,
    readonly viewIndex: number,
    readonly tokens: number,
    private readonly block: ToolResultBlock,
    private readonly use: ToolUseBlock | undefined,
    private readonly display: unknown,
  ) {}

  get clearedTokens(): number {
    const { block, use, display } = this;
    return clearedTokensMemo.get(block, use?.id ?? "", () => estimateBlockTokens(clearedBlock(block, use, display)));
  }

  get filePath(): string | undefined {
    return toolFilePath(this.use);
  }
}

/** The file a tool call names (`file_path`, or a notebook's `notebook_path`), if any. */
export function toolFilePath(use: ToolUseBlock | undefined): string | undefined {
  const input = use?.input as Record<string, unknown> | undefined;
  const path = input?.file_path ?? input?.notebook_path;
  return typeof path === "string" && path !== "" ? path : undefined;
}

/** What one view's scan found, kept so the next turn's longer view continues from where this one stopped. */
interface ScannedView {
  /** The entries scanned (compared by identity with the next view). */
  entries: MessageEntry[];
  /** The results found in them, in view order. */
  results: ToolResultRef[];
  /** `resultsBefore[i]`: how many of `results` come from `entries[0..i)`. */
  resultsBefore: number[];
  /** Every tool_use of `entries` by id (a later use of an id wins, as in one pass). */
  uses: Map<string, ToolUseBlock>;
}

/**
 * Keyed by the view's first entry. Every tier collects the results of a view that only grew since last turn:
 * a full pass made a FoundResult per result and re-measured each block every call, which at 10,000 entries was
 * most of a turn's garbage (bench/pipeline-overhead.ts). A view that shares only part of the last one (a
 * different projection of the same timeline) keeps the shared results and rebuilds the tool_use index.
 */
const scannedViews = new WeakMap<MessageEntry, ScannedView>();

/** Every tool_result block in view order, each with the name of the tool it answers. */
export function collectToolResults(view: readonly MessageEntry[]): ToolResultRef[] {
  const first = view[0];
  if (first === undefined) return [];
  let scan = scannedViews.get(first);
  if (scan === undefined) {
    scan = { entries: [], results: [], resultsBefore: [0], uses: new Map() };
    scannedViews.set(first, scan);
  }
  const shared = sharedPrefixLength(scan.entries, view);
  if (shared < scan.entries.length) {
    scan.entries.length = shared;
    scan.results.length = scan.resultsBefore[shared]!;
    scan.resultsBefore.length = shared + 1;
    // Uses of the dropped entries must not answer results of the new ones.
    scan.uses = new Map();
    for (const entry of scan.entries) addUses(entry, scan.uses);
  }
  for (let viewIndex = shared; viewIndex < view.length; viewIndex++) {
    const entry = view[viewIndex]!;
    scan.entries.push(entry);
    scanEntry(entry, viewIndex, scan);
    scan.resultsBefore.push(scan.results.length);
  }
  return scan.results.slice();
}

// Every tool_use, as applyClearedToolResults finds them, so the estimated placeholder is the one applied.
// (Timeline entries hold one block each; the loop over content covers an imported multi-block one.)
function addUses(entry: MessageEntry, uses: Map<string, ToolUseBlock>): void {
  if (entry.type !== "assistant") return;
  for (const block of entry.message.content) if (block.type === "tool_use") uses.set(block.id, block);
}

function scanEntry(entry: MessageEntry, viewIndex: number, scan: ScannedView): void {
  if (entry.type === "assistant") {
    addUses(entry, scan.uses);
    return;
  }
  if (entry.type !== "user" || typeof entry.message.content === "string") return;
  const display = entry.toolUseResult;
  for (const block of entry.message.content) {
    if (block.type !== "tool_result") continue;
    const use = scan.uses.get(block.tool_use_id);
    scan.results.push(
      new FoundResult(
        block.tool_use_id,
        use?.name,
        entry.uuid,
        viewIndex,
        estimateBlockTokens(block),
        block,
        use,
        display,
      ),
    );
  }
}

/** The results microcompact may clear: those answering a tool in `compactableTools`. */
export function compactableResults(
  view: readonly MessageEntry[],
  compactableTools: ReadonlySet<string>,
): ToolResultRef[] {
  return collectToolResults(view).filter(
    (result) => result.toolName !== undefined && compactableTools.has(result.toolName),
  );
}

/**
 * Tokens a result would save if cleared: its size now minus the size of the block that replaces it (the
 * descriptive placeholder of cleared-placeholder.ts, ~25 tokens longer than the generic text), so a record's
 * `tokensSaved` is what the request actually loses.
 */
export function clearSavings(result: ToolResultRef): number {
  return Math.max(0, result.tokens - result.clearedTokens);
}

function clearedBlock(block: ToolResultBlock, use: ToolUseBlock | undefined, display: unknown): ToolResultBlock {
  // Copy so the timeline's entry is untouched; every other field (ids, cache_reference, is_error) stays.
  return { ...block, content: clearedPlaceholder(use, block, display) };
}

function isToolUseEntry(entry: MessageEntry): entry is AssistantEntry {
  return entry.type === "assistant" && entry.message.content.some((block) => block.type === "tool_use");
}

/** Tool uses of the view by id (found incrementally). */
function toolUsesOf(view: readonly MessageEntry[]): Map<string, ToolUseBlock> {
  const uses = new Map<string, ToolUseBlock>();
  for (const entry of filterGrowing(view, isToolUseEntry) as AssistantEntry[])
    for (const block of entry.message.content) if (block.type === "tool_use") uses.set(block.id, block);
  return uses;
}

function hasToolResult(entry: MessageEntry): boolean {
  return (
    entry.type === "user" &&
    typeof entry.message.content !== "string" &&
    entry.message.content.some((block) => block.type === "tool_result")
  );
}

/** Each entry's cleared copy, with the ids it cleared: the same clears give the same object every turn. */
const clearedCopies = new DerivedCache<UserEntry, UserEntry>();

function withClears(
  entry: UserEntry,
  clearedIds: ReadonlySet<string>,
  uses: () => ReadonlyMap<string, ToolUseBlock>,
): UserEntry {
  const content = entry.message.content;
  if (typeof content === "string") return entry;
  const hit = (block: (typeof content)[number]) => block.type === "tool_result" && clearedIds.has(block.tool_use_id);
  const key = content
    .filter(hit)
    .map((block) => (block as ToolResultBlock).tool_use_id)
    .join("\n");
  if (key === "") return entry;
  return clearedCopies.get(
    entry,
    key,
    (): UserEntry => ({
      ...entry,
      message: {
        ...entry.message,
        content: content.map((block) => {
          if (!hit(block)) return block;
          const result = block as ToolResultBlock;
          return clearedBlock(result, uses().get(result.tool_use_id), entry.toolUseResult);
        }),
      },
    }),
  );
}

/**
 * The view with the content of every tool result in `clearedIds` replaced by the placeholder.
 * Untouched entries are returned as the same objects; touched ones are copies, the same copy for the same
 * clears turn after turn (so the request stage's memos keyed by identity keep working after a clear). Only
 * the entries holding tool results are looked at, found incrementally.
 */
export function applyClearedToolResults(
  view: readonly MessageEntry[],
  clearedIds: ReadonlySet<string>,
): MessageEntry[] {
  const result = view.slice();
  if (clearedIds.size === 0) return result;
  const holders = filterGrowing(view, hasToolResult);
  let uses: Map<string, ToolUseBlock> | undefined;
  const lazyUses = (): Map<string, ToolUseBlock> => {
    uses ??= toolUsesOf(view);
    return uses;
  };
  // Holders are in view order: one walk by identity finds their places.
  let next = 0;
  for (let index = 0; index < result.length && next < holders.length; index++) {
    if (result[index] !== holders[next]) continue;
    result[index] = withClears(holders[next] as UserEntry, clearedIds, lazyUses);
    next++;
  }
  return result;
}

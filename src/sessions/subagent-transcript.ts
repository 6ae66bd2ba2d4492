/**
 * A subagent's sidechain transcript: its own JSONL file beside the parent's
 * (`<session-dir>/<session-id>/subagents/agent-<agentId>.jsonl`). The subagent's timeline is an ordinary
 * chain from its own point of view; this store stamps `isSidechain: true` and `agentId` on every message
 * entry as it is written, so the file says whose entries they are.
 */
import { dirname, join } from "node:path";
import type { TimelineEntry } from "../messages/index.js";
import { isMessageEntry } from "../messages/index.js";
import {
  JsonlTranscriptStore,
  MemoryTranscriptStore,
  TRANSCRIPT_EXTENSION,
  type TranscriptStore,
} from "../transcript/index.js";

/** The sidechain file of subagent `agentId` for the parent transcript at `parentPath`. */
export function sidechainTranscriptPath(parentPath: string, agentId: string): string {
  const sessionFolder = parentPath.endsWith(TRANSCRIPT_EXTENSION)
    ? parentPath.slice(0, -TRANSCRIPT_EXTENSION.length)
    : join(dirname(parentPath), "session");
  return join(sessionFolder, "subagents", `agent-${agentId}${TRANSCRIPT_EXTENSION}`);
}

/**
 * The transcript subagent `agentId` writes: its sidechain file beside the parent's (`parentPath`), or memory
 * when the parent keeps none; either way every message entry is stamped as the subagent's.
 */
export async function openSidechainTranscript(
  parent: { sessionId: string; cwd: string; path: string | undefined },
  agentId: string,
): Promise<SidechainTranscriptStore> {
  const path = parent.path !== undefined ? sidechainTranscriptPath(parent.path, agentId) : undefined;
  const inner: TranscriptStore =
    path !== undefined
      ? await JsonlTranscriptStore.open({ sessionId: parent.sessionId, cwd: parent.cwd, path })
      : new MemoryTranscriptStore();
  return new SidechainTranscriptStore(inner, agentId);
}

/** The same entry marked as belonging to subagent `agentId` (records pass through unchanged). */
export function toSidechainEntry(entry: TimelineEntry, agentId: string): TimelineEntry {
  if (!isMessageEntry(entry)) return entry;
  return { ...entry, isSidechain: true, agentId };
}

/** Wraps a store so every message entry written is a sidechain entry of `agentId`. */
export class SidechainTranscriptStore implements TranscriptStore {
  readonly #inner: TranscriptStore;
  readonly #agentId: string;

  constructor(inner: TranscriptStore, agentId: string) {
    this.#inner = inner;
    this.#agentId = agentId;
  }

  get path(): string | undefined {
    return this.#inner.path;
  }

  append(entry: TimelineEntry): void {
    this.#inner.append(toSidechainEntry(entry, this.#agentId));
  }

  flush(): Promise<void> {
    return this.#inner.flush();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

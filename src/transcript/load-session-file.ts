/**
 * A saved session's transcript file, loaded and rebuilt into the conversation to continue from. Which file is
 * the session manager's question (sessions/session-manager.ts: id, unique prefix or path); this only reads one.
 */
import type { TimelineEntry } from "../messages/index.js";
import type { TranscriptHeader } from "./header.js";
import { type LoadTranscriptOptions, loadTranscript } from "./load-transcript.js";
import type { LoadProblem } from "./problems.js";
import { resumeConversation } from "./resume-conversation.js";

export interface LoadedSessionFile {
  path: string;
  header: TranscriptHeader;
  /** Entries ready for `new Timeline(entries)`. */
  entries: TimelineEntry[];
  leafUuid: string | null;
  problems: LoadProblem[];
  unknownTypes: Record<string, number>;
  /** Message entries left out by the resume (removed, abandoned branches, repeated uuids). */
  dropped: number;
  repointed: number;
}

/** Loads the transcript at `path` and rebuilds the conversation a resume continues from. */
export async function loadSessionFile(path: string, options: LoadTranscriptOptions = {}): Promise<LoadedSessionFile> {
  const loaded = await loadTranscript(path, options.onProgress === undefined ? {} : { onProgress: options.onProgress });
  const resumed = resumeConversation(loaded.entries);
  return {
    path,
    header: loaded.header,
    entries: resumed.entries,
    leafUuid: resumed.leafUuid,
    problems: loaded.problems,
    unknownTypes: loaded.unknownTypes,
    dropped: resumed.dropped,
    repointed: resumed.repointed,
  };
}

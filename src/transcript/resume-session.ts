/**
 * Resume by session id or path: load, report problems, rebuild the conversation.
 */
import type { TimelineEntry } from "../messages/index.js";
import type { TranscriptHeader } from "./header.js";
import { type LoadTranscriptOptions, loadTranscript } from "./load-transcript.js";
import { TRANSCRIPT_EXTENSION, transcriptPath } from "./paths.js";
import type { LoadProblem } from "./problems.js";
import { resumeConversation } from "./resume-conversation.js";

export interface ResumeSessionOptions extends LoadTranscriptOptions {
  /** Working directory whose project folder holds the session (ignored when a path is given). */
  cwd: string;
  /** threadline home. Default `threadlineHome()`. */
  home?: string;
}

export interface ResumeSessionResult {
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

/** Whether the argument names a file rather than a session id. */
function isPath(sessionIdOrPath: string): boolean {
  return (
    sessionIdOrPath.includes("/") || sessionIdOrPath.includes("\\") || sessionIdOrPath.endsWith(TRANSCRIPT_EXTENSION)
  );
}

/** Loads and resumes a session given its id (looked up under `cwd`'s project folder) or a file path. */
export async function resumeSession(
  sessionIdOrPath: string,
  options: ResumeSessionOptions,
): Promise<ResumeSessionResult> {
  const path = isPath(sessionIdOrPath) ? sessionIdOrPath : transcriptPath(sessionIdOrPath, options.cwd, options.home);
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

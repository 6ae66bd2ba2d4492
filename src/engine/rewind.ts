/**
 * Rewind (docs/REWIND.md): go back to the end of an earlier prompt's turn and choose what comes back, the
 * conversation, the code, or both. The conversation side is one `rewind` record (the timeline rebuilds its
 * branch from it, and so does a resume); the code side puts back, from the checkpoints, every file a later
 * turn changed. Nothing in the transcript is removed: rewound turns stay listed and can be gone back to.
 */
import { dirname, join } from "node:path";
import { Checkpoints } from "../checkpoints/index.js";
import { threadlineHome } from "../home/index.js";
import type { TurnRecorder } from "../loop/turn-recorder.js";
import { createSystemEntry, isMessageEntry, type SystemEntry, type UserEntry } from "../messages/index.js";
import { branchEntries, isTypedPrompt, promptIndex, type Timeline, turnEndIndex } from "../timeline/index.js";

export const REWIND_MODES = ["both", "conversation", "code"] as const;
export type RewindMode = (typeof REWIND_MODES)[number];

/** One prompt a rewind can go back to. */
export interface RewindPoint {
  uuid: string;
  /** 1-based place among the current branch's prompts (0: the start); undefined on a rewound branch. */
  number: number | undefined;
  /** The start of the session: just before prompt `uuid` (the first ever sent), not the end of its turn. */
  beforePrompt?: boolean;
  /** The prompt's text (its first text block when it has images). */
  text: string;
  timestamp: string;
}

export interface RewindOutcome {
  point: RewindPoint;
  entry: SystemEntry;
  restored: string[];
  notRestorable: { path: string; reason: string }[];
}

/** Where a session's checkpoints live: beside its transcript file, else under the home by session id. */
export function checkpointDir(transcriptPath: string | undefined, sessionId: string, env: NodeJS.ProcessEnv): string {
  if (transcriptPath !== undefined)
    return join(
      dirname(transcriptPath),
      `${transcriptPath.replace(/^.*[\\/]/, "").replace(/\.jsonl$/, "")}.checkpoints`,
    );
  return join(threadlineHome(env), "checkpoints", sessionId);
}

function promptText(entry: UserEntry): string {
  const content = entry.message.content;
  if (typeof content === "string") return content;
  const text = content.find((block) => block.type === "text");
  return text !== undefined && text.type === "text" ? text.text : "";
}

/** Every prompt of the session in the order sent, the current branch's numbered. */
export function rewindPoints(timeline: Timeline): RewindPoint[] {
  const onBranch = new Set(timeline.entries.filter(isTypedPrompt).map((entry) => (entry as UserEntry).uuid));
  let number = 0;
  return timeline.allEntries.filter(isTypedPrompt).map((entry) => {
    const user = entry as UserEntry;
    const here = onBranch.has(user.uuid);
    if (here) number++;
    return { uuid: user.uuid, number: here ? number : undefined, text: promptText(user), timestamp: user.timestamp };
  });
}

/** Text shown for rewind point 0. */
export const SESSION_START_TEXT = "(the start of the session, before the first prompt)";

/**
 * The point `reference` names: a branch prompt's number, 0 for the start of the session (undoing the first
 * prompt's changes too), or a prompt's uuid or unique uuid prefix (6+).
 */
export function findRewindPoint(points: readonly RewindPoint[], reference: string): RewindPoint | string {
  const trimmed = reference.trim();
  if (/^\d+$/.test(trimmed)) {
    const wanted = Number(trimmed);
    const first = points[0];
    if (wanted === 0 && first !== undefined)
      return { uuid: first.uuid, number: 0, beforePrompt: true, text: SESSION_START_TEXT, timestamp: first.timestamp };
    const point = points.find((candidate) => candidate.number === wanted);
    const count = points.filter((candidate) => candidate.number !== undefined).length;
    return point ?? `no prompt ${wanted}: this conversation has ${count} prompt(s)`;
  }
  const matches = points.filter(
    (point) => point.uuid === trimmed || (trimmed.length >= 6 && point.uuid.startsWith(trimmed)),
  );
  if (matches.length === 1) return matches[0]!;
  return matches.length === 0
    ? `no prompt with id ${trimmed}`
    : `${matches.length} prompts start with ${trimmed}: give more of the id`;
}

export interface RewindDeps {
  timeline: Timeline;
  sessionId: string;
  checkpoints: Checkpoints | undefined;
  now: () => Date;
  append: (entry: SystemEntry) => void;
}

/**
 * Rewinds to the end of `point`'s turn. Code: the files changed by every prompt sent after that turn (any
 * branch), each back to its state before the first of them changed it. Conversation: a record the timeline
 * continues from. The record is appended in every mode, so the transcript says what was done.
 */
export async function rewindTo(deps: RewindDeps, point: RewindPoint, mode: RewindMode): Promise<RewindOutcome> {
  const all = deps.timeline.allEntries;
  const cut =
    (point.beforePrompt === true ? promptIndex(all, point.uuid) : turnEndIndex(all, point.uuid)) ?? all.length;
  const later = all
    .slice(cut)
    .filter(isTypedPrompt)
    .map((entry) => (entry as UserEntry).uuid);
  const code = mode !== "conversation";
  const conversation = mode !== "code";
  let restored: string[] = [];
  let notRestorable: { path: string; reason: string }[] = [];
  if (code && deps.checkpoints !== undefined) {
    ({ restored, notRestorable } = await deps.checkpoints.restore(await deps.checkpoints.plan(later)));
  } else if (code) {
    notRestorable = [{ path: "(all files)", reason: "file checkpointing is off for this session" }];
  }
  // The record's parent is the last message it goes back to, so the chain of parents follows the branch.
  let parent: string | null = deps.timeline.lastMessage?.uuid ?? null;
  if (conversation) {
    parent = null; // the start of the session, until a message before the cut is found
    const branch = branchEntries(all.slice(0, cut));
    for (let index = branch.length - 1; index >= 0; index--) {
      const entry = branch[index]!;
      if (isMessageEntry(entry) && entry.isSidechain !== true) {
        parent = entry.uuid;
        break;
      }
    }
  }
  const entry = createSystemEntry(
    { sessionId: deps.sessionId, parentUuid: parent, now: deps.now() },
    "rewind",
    point.beforePrompt === true
      ? `Rewound to the start of the session (${mode})`
      : `Rewound to prompt ${point.number ?? point.uuid} (${mode})`,
    {
      rewindMetadata: {
        promptUuid: point.uuid,
        ...(point.beforePrompt === true ? { beforePrompt: true } : {}),
        conversation,
        code,
        restored,
        notRestorable,
      },
    },
  );
  deps.append(entry);
  return { point, entry, restored, notRestorable };
}

/** A session's checkpoints, when file checkpointing is on. */
export function checkpointsFor(
  enabled: boolean | undefined,
  cwd: string,
  transcriptPath: string | undefined,
  sessionId: string,
  env: NodeJS.ProcessEnv,
): Checkpoints | undefined {
  if (enabled !== true) return undefined;
  return new Checkpoints({ dir: checkpointDir(transcriptPath, sessionId, env), cwd });
}

/** `rewindTo` the prompt `reference` names (rewindPoints, findRewindPoint); a reference naming none throws. */
export async function rewindSession(
  deps: Omit<RewindDeps, "append"> & { recorder: TurnRecorder },
  reference: string,
  mode: RewindMode,
): Promise<RewindOutcome> {
  const point = findRewindPoint(rewindPoints(deps.timeline), reference);
  if (typeof point === "string") throw new Error(point);
  const outcome = await rewindTo({ ...deps, append: (entry) => deps.recorder.append(entry) }, point, mode);
  await deps.recorder.flush();
  return outcome;
}

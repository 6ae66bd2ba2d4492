/**
 * `/rewind` (and Esc twice at an empty prompt): the session's prompts, newest last, then what to restore
 * (docs/REWIND.md). Prompts of a rewound branch are listed by id (marked "rewound") and can be gone back to.
 */
import { type RewindMode, rewindPoints, SESSION_START_TEXT } from "../../../engine/rewind.js";
import { rewindLine } from "../print/rewind-flags.js";

/** The part of the REPL `/rewind` talks to (slash-commands.ts's `ReplHost`). */
export interface RewindHost {
  readonly engine: import("../../../engine/query-engine.js").QueryEngine;
  print(text: string): void;
  ask(prompt: string): Promise<string | null>;
}

/** Most prompts listed at once (the newest). */
export const REWIND_LIST_LENGTH = 20;

const MODE_CHOICES: Readonly<Record<string, RewindMode>> = { "1": "both", "2": "conversation", "3": "code" };

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

export async function rewindCommand(host: RewindHost, argument: string): Promise<undefined> {
  const points = rewindPoints(host.engine.timeline);
  if (points.length === 0) {
    host.print("Nothing to rewind: no prompt has been sent yet.");
    return undefined;
  }
  let target = argument.trim();
  if (target === "") {
    const shown = points.slice(-REWIND_LIST_LENGTH);
    host.print(
      [
        `    0. ${SESSION_START_TEXT}`,
        ...shown.map((point) =>
          point.number !== undefined
            ? `  ${String(point.number).padStart(3)}. ${oneLine(point.text, 70)}`
            : `       ${point.uuid.slice(0, 8)} (rewound) ${oneLine(point.text, 55)}`,
        ),
      ].join("\n"),
    );
    target = (
      (await host.ask("Rewind to the end of which prompt (number or id, 0 for the start, empty to cancel)? ")) ?? ""
    ).trim();
    if (target === "") return undefined;
  }
  host.print("  1. conversation and code   2. conversation only   3. code only");
  const choice = ((await host.ask("Restore what (1-3, empty to cancel)? ")) ?? "").trim();
  const mode = MODE_CHOICES[choice];
  if (mode === undefined) {
    if (choice !== "") host.print(`No choice "${choice}": nothing changed.`);
    return undefined;
  }
  try {
    host.print(rewindLine(await host.engine.rewind(target, mode)));
  } catch (error) {
    host.print(`${error instanceof Error ? error.message : String(error)}; nothing changed.`);
  }
  return undefined;
}

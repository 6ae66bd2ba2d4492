/**
 * `--rewind-to` / `--rewind-mode` in print mode (docs/REWIND.md): the session is rewound before its prompt,
 * or, without a prompt, rewound and closed. One line says what came back and what could not.
 */
import type { QueryEngine } from "../../../engine/query-engine.js";
import type { RewindOutcome } from "../../../engine/rewind.js";
import type { CliOptions } from "../../args.js";
import type { CliIo } from "../../io.js";
import { engineOptions, openSession } from "../../session-flags.js";

/** The one line a rewind reports. */
export function rewindLine(outcome: RewindOutcome): string {
  const { point, restored, notRestorable } = outcome;
  const meta = outcome.entry.rewindMetadata;
  const what = meta?.conversation === true ? (meta.code ? "conversation and code" : "conversation") : "code";
  const to = point.beforePrompt === true ? "the start of the session" : `prompt ${point.number ?? point.uuid}`;
  const parts = [`rewound ${what} to ${to}`];
  if (meta?.code === true) parts.push(`${restored.length} file(s) restored`);
  if (notRestorable.length > 0)
    parts.push(`not restorable: ${notRestorable.map((item) => `${item.path} (${item.reason})`).join("; ")}`);
  return parts.join(", ");
}

/** Rewinds `engine` as the flags say; false (with one line on stderr) when the prompt named is not there. */
export async function rewindFromFlags(engine: QueryEngine, cli: CliOptions, io: CliIo): Promise<boolean> {
  try {
    const outcome = await engine.rewind(cli.rewindTo ?? "", cli.rewindMode);
    io.stderr.write(`threadline: ${rewindLine(outcome)}\n`);
    return true;
  } catch (error) {
    io.stderr.write(
      `threadline: --rewind-to: ${error instanceof Error ? error.message : String(error)}; nothing changed\n`,
    );
    return false;
  }
}

/** `--rewind-to` without a prompt: rewind the saved session and close it; no request is sent. */
export async function rewindOnly(cli: CliOptions, io: CliIo): Promise<number> {
  const { engine } = await openSession(cli, engineOptions(cli, io.cwd));
  const ok = await rewindFromFlags(engine, cli, io);
  await engine.close();
  return ok ? 0 : 1;
}

/**
 * `threadline export SESSION > file.jsonl`: a session as a JSONL transcript on stdout, from the store
 * `THREADLINE_STORE` names. From PostgreSQL: the stored header line, then every record in sequence order,
 * each exactly as stored, so importing the output and exporting again gives the same bytes. From the file
 * store: the file's bytes.
 */
import { createReadStream } from "node:fs";
import { storeFromEnv } from "../../transcript/index.js";
import { UsageError } from "../args.js";
import { resolveTranscript } from "../inspect/resolve.js";
import type { CliIo } from "../io.js";
import { CliError, connectStore } from "../session-flags.js";

/** Records gathered before one write to stdout. */
const WRITE_BATCH_RECORDS = 500;

/** Runs the command on the arguments after `export`; resolves to the exit code. */
export async function runExportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [sessionId, ...extra] = argv;
  if (sessionId === undefined || extra.length > 0 || sessionId.startsWith("-")) {
    throw new UsageError("usage: threadline export <session-id> > file.jsonl");
  }
  const location = storeFromEnv(io.env);
  if (location.kind === "jsonl") {
    const resolved = await resolveTranscript(sessionId, io.env, io.cwd);
    if (!resolved.ok) throw new CliError(resolved.error);
    for await (const chunk of createReadStream(resolved.path)) await write(io.stdout, chunk as Buffer);
    return 0;
  }
  const database = await connectStore(location.url);
  try {
    const header = await database.sessionHeader(sessionId);
    if (header === undefined)
      throw new CliError(`no session ${sessionId} in the PostgreSQL store at ${database.display}`);
    let pending: string[] = [header];
    const writes: Promise<void>[] = [];
    await database.forEachRecord(sessionId, (record) => {
      pending.push(record);
      if (pending.length >= WRITE_BATCH_RECORDS) {
        writes.push(write(io.stdout, `${pending.join("\n")}\n`));
        pending = [];
      }
    });
    if (pending.length > 0) writes.push(write(io.stdout, `${pending.join("\n")}\n`));
    await Promise.all(writes);
    return 0;
  } finally {
    await database.close();
  }
}

/** Writes and waits for the stream to drain when it asks to (a pipe to a slow reader). */
function write(stream: NodeJS.WritableStream, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const ready = stream.write(data, (error) => {
      if (error) reject(error);
    });
    if (ready) resolve();
    else stream.once("drain", () => resolve());
  });
}

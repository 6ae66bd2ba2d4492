/**
 * `threadline inspect SESSION` when `THREADLINE_STORE` is a database: the stored header and records go
 * through the same accumulator a file's lines do (entry `seq` is reported as line `seq + 1`, the header
 * being line 1, as in the exported file).
 */

import { CliError, connectStore } from "../session-flags.js";
import { InspectAccumulator } from "./report.js";
import type { InspectReport } from "./types.js";

/** The report of a stored session, and a name for it; one `CliError` line when it is not there. */
export async function inspectStoredSession(
  url: string,
  sessionId: string,
): Promise<{ report: InspectReport; name: string }> {
  const database = await connectStore(url);
  try {
    const header = await database.sessionHeader(sessionId);
    if (header === undefined)
      throw new CliError(`no session ${sessionId} in the PostgreSQL store at ${database.display}`);
    const accumulator = new InspectAccumulator();
    const addLine = (line: string, lineNumber: number) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        accumulator.addMalformed(lineNumber, error instanceof Error ? error.message : String(error));
        return;
      }
      accumulator.add(value, lineNumber);
    };
    addLine(header, 1);
    await database.forEachRecord(sessionId, (record, seq) => addLine(record, seq + 1));
    return { report: accumulator.finish(), name: `${sessionId} (PostgreSQL at ${database.display})` };
  } finally {
    await database.close();
  }
}

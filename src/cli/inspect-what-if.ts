/** Placeholder replaced below. */
import type { InspectReport } from "./inspect-types.js";

export async function runWhatIf(
  _path: string,
  _report: InspectReport,
  io: { json: boolean; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  io.stderr.write("threadline inspect: --what-if is not built yet\n");
  return 1;
}

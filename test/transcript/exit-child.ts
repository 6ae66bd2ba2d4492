/**
 * Child process for the exit-flush test: appends entries and calls process.exit without awaiting flush.
 * Arguments: <path> <count> <mode: exit | sync-then-kill | kill>.
 */
import { createUserEntry } from "../../src/messages/index.js";
import { flushAllTranscriptsSync, JsonlTranscriptStore } from "../../src/transcript/index.js";

const [path, countText, mode] = process.argv.slice(2);
const store = await JsonlTranscriptStore.open({ sessionId: "child", cwd: "/work", path: path! });
let parentUuid: string | null = null;
for (let index = 0; index < Number(countText); index++) {
  const entry = createUserEntry({ sessionId: "child", parentUuid, uuid: `entry-${index}` }, `line ${index} \u2028`);
  store.append(entry);
  parentUuid = entry.uuid;
}
if (mode === "exit") process.exit(3);
// What the CLI's own SIGINT/SIGTERM handler does: write synchronously. SIGKILL then ends the process at
// once (no exit handlers, no pending callbacks), so only what was already written survives.
if (mode === "sync-then-kill") flushAllTranscriptsSync();
process.kill(process.pid, "SIGKILL");

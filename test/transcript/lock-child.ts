/**
 * Child process for the session-lock test. Arguments: <path> <mode>.
 * - hold: opens the session, prints "held", keeps it until stdin closes, then closes it;
 * - kill: opens the session, prints "held", and dies by SIGKILL (its lock stays behind, stale);
 * - try: opens and closes the session, printing "ok" or the one line it was refused with.
 */
import { createUserEntry } from "../../src/messages/index.js";
import { JsonlTranscriptStore } from "../../src/transcript/index.js";

const [path, mode] = process.argv.slice(2);
try {
  const store = await JsonlTranscriptStore.open({ sessionId: "child", cwd: "/work", path: path! });
  store.append(createUserEntry({ sessionId: "child", parentUuid: null, uuid: `from-${process.pid}` }, "hello"));
  if (mode === "try") {
    await store.close();
    process.stdout.write("ok\n");
  } else {
    process.stdout.write("held\n");
    if (mode === "kill") process.kill(process.pid, "SIGKILL");
    process.stdin.resume();
    process.stdin.on("end", () => void store.close());
  }
} catch (error) {
  process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
}

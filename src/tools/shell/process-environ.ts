/**
 * `/proc/PID/environ` holds the environment a process started with, and threadline's own holds the API key:
 * removing it from `process.env` later changes nothing there, and Node 20 cannot re-exec itself with a cleaner
 * one. Without the sandbox (whose private /proc shows only the sandbox's own processes), a command on the same
 * user's account can read it (`/proc/$PPID/environ`) and print the key encoded so redaction misses it (issue 53
 * item 3). Such commands are refused by their text. This is a screen, not a wall: a path assembled at run time
 * (`p=/pr; cat ${p}oc/$PPID/env*`), or a program that opens the file itself, passes it. docs/TRUST.md says so;
 * the sandbox is what closes it.
 */

/** The command's text with quotes and backslashes removed (`/pr""oc`, `envi\ron` read as written). */
function unquoted(command: string): string {
  return command.replace(/["'\\]/g, "");
}

/** Whether `command` names a process's environment file under /proc (`environ`, or a glob that could expand to it: `/e*`, `env*`). */
export function readsProcessEnvironment(command: string): boolean {
  const text = unquoted(command);
  return /\/proc\b/.test(text) && /environ|\/e[nviro]*[*?[]|\benv[*?[]/.test(text);
}

/** The one line a refused command gets. */
export function processEnvironmentRefusal(tool: string): string {
  return (
    `${tool} refused: the command reads a process's environment under /proc (…/environ), where threadline's own ` +
    "API key is; nothing was run. With --sandbox, /proc shows only the sandbox's own processes."
  );
}

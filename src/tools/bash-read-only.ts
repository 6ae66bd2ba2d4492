/**
 * Conservative classification of shell commands as read-only. A false "read-only" lets a command skip the
 * permission prompt and run concurrently, so anything not plainly a read is treated as a write.
 */

/** Commands that only read, whatever their (checked) arguments. */
const READ_ONLY_COMMANDS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "pwd",
  "echo",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "which",
  "file",
  "stat",
  "du",
  "df",
  "tree",
  "whoami",
  "uname",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "diff",
  "cmp",
  "true",
  "false",
  "printenv",
  "nl",
  "git",
]);

/** git subcommands that only read. */
const READ_ONLY_GIT_SUBCOMMANDS = new Set(["status", "log", "diff", "show", "rev-parse", "ls-files", "blame"]);

/** Arguments that make an otherwise read-only command write or run other programs. */
const WRITING_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  find: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
  rg: ["--pre"],
  git: ["--output", "--ext-diff"],
};

/** Shell syntax that redirects, substitutes, backgrounds or otherwise defeats word-level checks. */
const UNSAFE_SYNTAX = /[<>`$(){}\n\\]|(?<!&)&(?!&)/;

function segmentIsReadOnly(segment: string): boolean {
  const words = segment.trim().split(/\s+/).filter(Boolean);
  const command = words[0];
  if (command === undefined || !READ_ONLY_COMMANDS.has(command)) return false;
  const forbidden = WRITING_ARGUMENTS[command] ?? [];
  if (words.some((word) => forbidden.some((flag) => word === flag || word.startsWith(`${flag}=`)))) return false;
  if (command === "git") {
    // Global options such as `-c` could set hooks or pagers, so the subcommand must come directly.
    const subcommand = words[1];
    return subcommand !== undefined && READ_ONLY_GIT_SUBCOMMANDS.has(subcommand);
  }
  return true;
}

/**
 * Whether `command` clearly only reads: each part of a `|`, `&&`, `||` or `;` chain is an allow-listed command,
 * with no redirection, substitution, backgrounding, quotes spanning operators, or writing flags.
 */
export function isReadOnlyCommand(command: string): boolean {
  if (command.trim() === "" || UNSAFE_SYNTAX.test(command)) return false;
  // Quotes could hide operators from the split below; refuse quoted operators rather than parse quoting.
  if (/["'][^"']*(?:\||;|&)[^"']*["']/.test(command)) return false;
  return command.split(/\|\||&&|\||;/).every(segmentIsReadOnly);
}

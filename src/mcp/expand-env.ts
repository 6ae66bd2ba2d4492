/**
 * `${VAR}` and `${VAR:-default}` in MCP server configuration, as Claude Code expands them in `.mcp.json`
 * (command, args, env, url, headers; see docs/MCP.md). `$VAR` without braces is left alone, and a variable that
 * is unset with no default stays as the literal text, with one problem line saying which.
 */

/** `${NAME}` or `${NAME:-default}`; the default runs to the first `}` (no nesting). */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The expanded text and the names of referenced variables that were unset with no default. */
export interface Expansion {
  text: string;
  missing: string[];
}

/** Expands every reference in `text` from `env`. */
export function expandEnvReferences(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  const missing: string[] = [];
  const expanded = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    // `:-` uses the default when the variable is unset or empty, as in the shell.
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    if (value === "") return "";
    missing.push(name);
    return whole;
  });
  return { text: expanded, missing };
}

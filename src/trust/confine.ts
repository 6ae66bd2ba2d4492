/**
 * Configuration files (skills, commands, agent files) confined like Read: the file's real path, symlinks
 * resolved, must lie in one of the allowed roots (the workspace, the user's config folders), so a symlinked
 * SKILL.md or folder cannot hand out `/etc/passwd` (docs/TRUST.md, "Confined configuration files").
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

// Stryker disable BlockStatement: an emptied catch returns undefined as well (an emptied try is killed, but hidden here)
function realOr(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
// Stryker restore BlockStatement

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; "" passes the test below as well
  if (rel === "") return true;
  return !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/**
 * Where `path` really is, when that is inside one of `roots` (each resolved through its own symlinks);
 * otherwise a refusal line naming both. A path that does not exist gives `{ missing: true }`.
 */
export function confinedPath(
  path: string,
  roots: readonly string[],
): { real: string } | { refused: string } | { missing: true } {
  const real = realOr(path);
  if (real === undefined) return { missing: true };
  const realRoots = roots.map((root) => realOr(root) ?? resolve(root));
  if (realRoots.some((root) => inside(real, root))) return { real };
  return { refused: `${path} refused: it leads to ${real}, outside the workspace and your config folders` };
}

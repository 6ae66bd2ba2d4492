/**
 * Path confinement: every path a tool touches must resolve (after symlinks) inside the workspace or one of the
 * additional directories. Relative paths resolve against the workspace root.
 */
import { readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { ToolContext } from "../types.js";

/** Thrown when a path resolves outside every allowed root; its message is written for the model. */
export class PathOutsideWorkspaceError extends Error {
  override readonly name = "PathOutsideWorkspaceError";
}

/** The roots a call may touch: the workspace first, then the additional directories. */
export function allowedRoots(context: Pick<ToolContext, "cwd" | "additionalDirectories">): string[] {
  return [path.resolve(context.cwd), ...context.additionalDirectories.map((directory) => path.resolve(directory))];
}

function isWithin(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; "" passes the test below as well
  if (relative === "") return true;
  // `..` or `../x` is above the root; `..notes` is a file in it.
  return relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

async function realpathOrSelf(target: string): Promise<string> {
  try {
    return await realpath(target);
  } catch {
    return target;
  }
}

/** Most symlink hops followed while resolving a path that does not fully exist (the kernel's own limit is 40). */
const MAX_SYMLINK_HOPS = 40;

/**
 * The real location of `target`: its realpath when it exists, otherwise the realpath of the nearest existing
 * ancestor joined with the missing tail (so a new file under a symlinked directory is judged by where it lands).
 * A dangling symlink on the way is followed to where it points, since writing through it creates that file.
 */
async function realLocation(target: string): Promise<string> {
  const missing: string[] = [];
  let current = target;
  let hops = 0;
  for (;;) {
    try {
      const resolved = await realpath(current);
      // Stryker disable next-line ConditionalExpression: path.join of the resolved path alone is that path
      return missing.length === 0 ? resolved : path.join(resolved, ...[...missing].reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
    const link = await readlink(current).catch(() => undefined);
    if (link !== undefined) {
      if (++hops > MAX_SYMLINK_HOPS) throw new Error(`Too many levels of symbolic links: ${target}`);
      current = path.resolve(path.dirname(current), link);
      continue;
    }
    const parent = path.dirname(current);
    // Stryker disable next-line ConditionalExpression: unreachable, the filesystem root always exists
    if (parent === current) return target;
    missing.push(path.basename(current));
    current = parent;
  }
}

/**
 * Resolves `filePath` for a tool call and refuses it unless it stays inside an allowed root, both lexically and
 * after following symlinks. Returns the absolute (lexical) path to operate on.
 */
export async function resolveWorkspacePath(
  context: Pick<ToolContext, "cwd" | "additionalDirectories">,
  filePath: string,
): Promise<string> {
  const roots = allowedRoots(context);
  const absolute = path.resolve(roots[0] ?? process.cwd(), filePath);
  const realRoots = await Promise.all(roots.map(realpathOrSelf));
  // The lexical check also accepts the roots' real spellings, so `/real/ws/file` works when cwd is a symlink.
  const lexicallyInside = [...roots, ...realRoots].some((root) => isWithin(root, absolute));
  const real = await realLocation(absolute);
  const reallyInside = realRoots.some((root) => isWithin(root, real));
  if (lexicallyInside && reallyInside) return absolute;
  const where = lexicallyInside ? ` (it is a symlink that resolves to ${real})` : "";
  throw new PathOutsideWorkspaceError(
    `Access denied: ${absolute} is outside the workspace${where}. Tools may only access files under ` +
      `${roots.join(", ")}. Use a path inside the workspace.`,
  );
}

/**
 * `resolveWorkspacePath` for a tool that changes the file: a file with more than one hard link is refused like
 * an outside path, since another of its names may be outside the workspace and a link cannot be traced back.
 */
export async function resolveWorkspaceWritePath(
  context: Pick<ToolContext, "cwd" | "additionalDirectories">,
  filePath: string,
): Promise<string> {
  const absolute = await resolveWorkspacePath(context, filePath);
  const links = await stat(absolute).then(
    (info) => (info.isFile() ? info.nlink : 1),
    // Stryker disable next-line ArrowFunction: undefined > 1 is false as 1 > 1 is (nothing to write over)
    () => 1,
  );
  if (links > 1) {
    throw new PathOutsideWorkspaceError(
      `Access denied: ${absolute} has ${links} hard links, and another name of the same file may be outside the ` +
        "workspace, so it is treated as outside. Copy it to a new file first if it should be changed here.",
    );
  }
  return absolute;
}

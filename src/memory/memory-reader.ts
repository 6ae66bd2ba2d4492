/**
 * Reads memory files and the files they import, once each per session: `@path` imports are followed up to
 * `importMaxDepth` deep, confined like the Read tool (a path outside the allowed roots is refused, symlinks
 * resolved first), cycles refused, every file cut at `fileMaxChars` and the session held to `totalMaxChars`.
 * Each refusal or cut is one notice line naming the file and what was kept (docs/MEMORY.md).
 */
import { readFile, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { importTargets } from "./import-lines.js";
import { DEFAULT_MEMORY_LIMITS, type MemoryLimits } from "./memory-limits.js";
import type { MemoryFile, MemoryScope } from "./memory-types.js";

export interface MemoryReaderOptions {
  /** The user's home directory (`~/` in an import). */
  userHome: string;
  /** Where a project file's imports may point: the workspace, additional directories, the repository root. */
  projectRoots: readonly string[];
  /** Where a user file's imports may point besides the project roots: `~/.claude`, threadline's home. */
  userRoots: readonly string[];
  /** Default DEFAULT_MEMORY_LIMITS. */
  limits?: MemoryLimits;
}

/** Whether `path` is `root` or below it (both already resolved). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

export class MemoryReader {
  /** Real paths of every file loaded this session (a second mention of one is skipped, not repeated). */
  readonly loaded = new Set<string>();
  /** One line per refused import, cut file or skipped file, in the order they happened. */
  readonly notices: string[] = [];
  #totalChars = 0;
  readonly #options: MemoryReaderOptions;
  readonly #limits: MemoryLimits;
  #roots: Promise<{ project: string[]; user: string[] }> | undefined;

  constructor(options: MemoryReaderOptions) {
    this.#options = options;
    this.#limits = options.limits ?? DEFAULT_MEMORY_LIMITS;
  }

  /** Counts files already in the session (a resume) as loaded, so they are never attached twice. */
  async remember(paths: readonly string[], chars: number): Promise<void> {
    for (const path of paths) this.loaded.add((await realOrUndefined(path)) ?? path);
    this.#totalChars += chars;
  }

  /** `path` (a memory file of `scope`) and what it imports, in reading order; [] when absent or loaded already. */
  async read(path: string, scope: MemoryScope): Promise<MemoryFile[]> {
    return this.#read(resolve(path), scope, [], 0, undefined);
  }

  async #read(
    path: string,
    scope: MemoryScope,
    chain: readonly string[],
    depth: number,
    importedBy: string | undefined,
  ): Promise<MemoryFile[]> {
    const real = await realOrUndefined(path);
    if (real === undefined || this.loaded.has(real)) return [];
    if (!(await stat(real)).isFile()) return [];
    let content = await readFile(real, "utf8");
    const limits = this.#limits;
    if (content.length > limits.fileMaxChars) {
      this.notices.push(
        `memory: ${path} has ${content.length.toLocaleString("en-US")} characters; kept the first ${limits.fileMaxChars.toLocaleString("en-US")}`,
      );
      content = content.slice(0, limits.fileMaxChars);
    }
    if (this.#totalChars + content.length > limits.totalMaxChars) {
      this.notices.push(
        `memory: ${path} not loaded: memory files would pass ${limits.totalMaxChars.toLocaleString("en-US")} characters; kept the ${this.loaded.size} loaded before it`,
      );
      return [];
    }
    this.loaded.add(real);
    this.#totalChars += content.length;
    const files: MemoryFile[] = [{ path, scope, content, ...(importedBy !== undefined ? { importedBy } : {}) }];
    const here = [...chain, real];
    for (const target of importTargets(content)) {
      const resolved = this.#resolveTarget(target, path);
      const targetReal = await realOrUndefined(resolved);
      if (targetReal === undefined) continue; // plain text like "@alice", not a file: nothing is lost
      if (here.includes(targetReal)) {
        this.notices.push(
          `memory: @${target} in ${path} refused: it imports a file already being read (a cycle); kept ${path} without it`,
        );
        continue;
      }
      if (depth + 1 > limits.importMaxDepth) {
        this.notices.push(
          `memory: @${target} in ${path} not followed: imports nest deeper than ${limits.importMaxDepth}; kept ${path} without it`,
        );
        continue;
      }
      if (!(await this.#allowed(targetReal, scope))) {
        this.notices.push(
          `memory: @${target} in ${path} refused: ${resolved} is outside the workspace; kept ${path} without it`,
        );
        continue;
      }
      files.push(...(await this.#read(resolved, scope, here, depth + 1, path)));
    }
    return files;
  }

  #resolveTarget(target: string, from: string): string {
    if (target === "~" || target.startsWith("~/")) return join(this.#options.userHome, target.slice(1));
    if (isAbsolute(target)) return target;
    return resolve(dirname(from), target);
  }

  async #allowed(real: string, scope: MemoryScope): Promise<boolean> {
    this.#roots ??= (async () => ({
      project: await realRoots(this.#options.projectRoots),
      user: await realRoots(this.#options.userRoots),
    }))();
    const roots = await this.#roots;
    const allowed = scope === "user" ? [...roots.project, ...roots.user] : roots.project;
    return allowed.some((root) => isInside(real, root));
  }
}

async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) out.push((await realOrUndefined(root)) ?? resolve(root));
  return out;
}

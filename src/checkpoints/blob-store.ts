/**
 * Content-addressed blobs for checkpoints (docs/REWIND.md): a file's bytes are kept once under their sha256,
 * however many prompts saw them, so a turn that does not change a file costs nothing to keep.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export class BlobStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  #pathOf(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  /**
   * Keeps `bytes` (written whole: a temporary name, then renamed) and returns their hash. A write that fails (a
   * full disk) removes its temporary file before the error goes on, so the store holds only whole blobs.
   */
  async put(bytes: Buffer): Promise<string> {
    const hash = sha256(bytes);
    const path = this.#pathOf(hash);
    if (existsSync(path)) return hash;
    await mkdir(join(this.dir, hash.slice(0, 2)), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      throw error;
    }
    return hash;
  }

  /** The bytes kept under `hash`, checked against it; undefined when missing or damaged. */
  async get(hash: string): Promise<Buffer | undefined> {
    try {
      const bytes = await readFile(this.#pathOf(hash));
      return sha256(bytes) === hash ? bytes : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * A small real disk for full-disk tests: a tmpfs of a few KiB mounted on a fresh temp directory. Mounting needs
 * root (CAP_SYS_ADMIN); CI runs as root. Elsewhere `mountSmallDisk` returns the reason it could not, and the
 * tests that need it skip with that reason.
 */
import { execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { makeTempDir } from "../temp-dir.js";

export interface SmallDisk {
  path: string;
  unmount: () => Promise<void>;
}

/** Mounts a tmpfs of `kib` KiB; a string (why not) when this process may not mount. */
export async function mountSmallDisk(kib: number): Promise<SmallDisk | string> {
  if (process.platform !== "linux") return "a tmpfs disk needs Linux";
  if (process.getuid?.() !== 0) return "mounting a tmpfs needs root (CI runs as root)";
  const path = await makeTempDir("small-disk");
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${kib}k,mode=0777`, "tmpfs", path], { stdio: "pipe" });
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    return `mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
  }
  return {
    path,
    unmount: async () => {
      execFileSync("umount", [path], { stdio: "pipe" });
      await rm(path, { recursive: true, force: true });
    },
  };
}

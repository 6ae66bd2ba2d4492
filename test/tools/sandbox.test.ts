import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bashTool } from "../../src/tools/shell/bash-tool.js";
import { probeSandbox, sandboxArguments } from "../../src/tools/shell/sandbox.js";
import { SecretEnvironment } from "../../src/tools/shell/secret-env.js";
import type { ToolContext } from "../../src/tools/types.js";
import { makeTempDir } from "../../support/temp-dir.js";

describe("sandboxArguments", () => {
  it("binds / read-only, /tmp private, the roots writable, and unshares pid and network", () => {
    const args = sandboxArguments({ bwrapPath: "/usr/bin/bwrap", network: false }, "/srv/ws", ["/srv/ws"], "ls");
    expect(args).toEqual([
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      "--bind",
      "/srv/ws",
      "/srv/ws",
      "--unshare-pid",
      "--die-with-parent",
      "--unshare-net",
      "--chdir",
      "/srv/ws",
      "bash",
      "-c",
      "ls",
    ]);
    const networked = sandboxArguments({ bwrapPath: "bwrap", network: true }, "/srv/ws", ["/srv/ws"], "ls");
    expect(networked).not.toContain("--unshare-net");
  });

  it("shows a workspace's top directory under /tmp read-only, so writes beside the workspace fail", () => {
    const args = sandboxArguments({ bwrapPath: "bwrap", network: false }, "/tmp/a/b/ws", ["/tmp/a/b/ws"], "ls");
    const joined = args.join(" ");
    expect(joined).toContain("--tmpfs /tmp --ro-bind /tmp/a /tmp/a --bind /tmp/a/b/ws /tmp/a/b/ws");
  });
});

const probe = probeSandbox();
if (!probe.available) console.warn(`[skip] sandboxed Bash tests: ${probe.reason}`);

describe.skipIf(!probe.available)("Bash in the sandbox", () => {
  it("writes the workspace, not beside it; sees no secrets; has a private /tmp and /proc", async () => {
    const base = await makeTempDir("sandbox");
    const cwd = join(base, "ws");
    await mkdir(cwd);
    try {
      const secrets = new SecretEnvironment({
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        DEMO_API_KEY: "demo-key-123456789",
      });
      const context: ToolContext = {
        cwd,
        additionalDirectories: [],
        signal: new AbortController().signal,
        toolUseId: "toolu_sandbox",
        onProgress: () => {},
        runtime: { secrets, sandbox: { bwrapPath: probe.available ? probe.bwrapPath : "", network: false } },
      };
      const run = (command: string) => bashTool.call({ command }, context);
      expect((await run("echo in > inside.txt && cat inside.txt")).content).toBe("in");
      expect((await run("echo out > ../beside.txt")).isError).toBe(true);
      expect((await run("printenv DEMO_API_KEY || echo absent")).content).toBe("absent");
      // The host's /tmp is not there: only the workspace's own top directory is shown.
      expect((await run("ls /tmp")).content).toBe(tmpdir() === "/tmp" ? base.split("/").at(-1) : "(no output)");
      const hostFile = join(tmpdir(), `threadline-host-${process.pid}.txt`);
      await writeFile(hostFile, "host");
      try {
        expect((await run(`test -e ${hostFile} && echo visible || echo hidden`)).content).toBe(
          tmpdir() === "/tmp" ? "hidden" : "visible",
        );
      } finally {
        await rm(hostFile, { force: true });
      }
      // Only the sandbox's own processes are visible: no parent whose environ could be read.
      expect(Number((await run("ls /proc | grep -c '^[0-9]'")).content)).toBeLessThan(10);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

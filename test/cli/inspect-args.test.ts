/** What `inspect` accepts as a session and says about bad arguments: a short id, its own words. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runInspect } from "../../src/cli/inspect/inspect.js";
import { resolveTranscript } from "../../src/cli/inspect/resolve.js";
import { capture } from "./inspect-helpers.js";

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function homeWith(sessionIds: string[]): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "threadline-inspect-args-"));
  directories.push(home);
  const folder = join(home, "projects", "-some-project");
  await mkdir(folder, { recursive: true });
  for (const id of sessionIds) await writeFile(join(folder, `${id}.jsonl`), "");
  return home;
}

describe("inspect arguments", () => {
  // Mutation caught: without the prefix lookup, the short id `--resume` accepts is "no transcript".
  it("accepts a unique prefix of a session id, and says when a prefix is ambiguous", async () => {
    const home = await homeWith(["5a1b2c3d-0000-4000-8000-000000000001", "5a1b9999-0000-4000-8000-000000000002"]);
    const env = { THREADLINE_HOME: home, HOME: home };
    const found = await resolveTranscript("5a1b2c", env, "/elsewhere");
    expect(found).toEqual({
      ok: true,
      path: join(home, "projects", "-some-project", "5a1b2c3d-0000-4000-8000-000000000001.jsonl"),
    });
    expect(await resolveTranscript("5a1b", env, "/elsewhere")).toEqual({
      ok: false,
      error: "session id prefix 5a1b matches 2 sessions; type more of it",
    });
  });

  it("--html without a file name is one line in the command's words", async () => {
    const result = await capture((io) => runInspect(["--html"], io));
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe("threadline inspect: --html needs a file name (e.g. --html report.html)");
    expect(result.stderr).not.toContain("argument missing");
  });
});

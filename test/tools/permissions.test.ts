import { describe, expect, it } from "vitest";
import { editTool } from "../../src/tools/files/edit-tool.js";
import { readTool } from "../../src/tools/files/read-tool.js";
import { writeTool } from "../../src/tools/files/write-tool.js";
import {
  checkPermission,
  type PermissionPolicy,
  type PermissionRequest,
} from "../../src/tools/permissions/permissions.js";
import { bashTool } from "../../src/tools/shell/bash-tool.js";

const policy = (overrides: Partial<PermissionPolicy> = {}): PermissionPolicy => ({
  mode: "default",
  allow: [],
  deny: [],
  ...overrides,
});

const write = { file_path: "a.txt", content: "x" };
const edit = { file_path: "a.txt", old_string: "a", new_string: "b" };

describe("checkPermission", () => {
  it("default mode allows read-only calls and denies others without an ask callback, clearly", async () => {
    expect(await checkPermission(readTool, { file_path: "a" }, policy())).toEqual({ behavior: "allow" });
    expect(await checkPermission(bashTool, { command: "git status" }, policy())).toEqual({ behavior: "allow" });
    const denied = await checkPermission(writeTool, write, policy());
    expect(denied).toEqual({
      behavior: "deny",
      message:
        'Permission denied: Write(a.txt) needs approval, but permission mode "default" has no way to ask the user. ' +
        'The user can allow it with an allow rule (e.g. "Write") or another permission mode; until then, do not retry this call.',
    });
  });

  it("default mode asks, passing a summary, and honours the answer", async () => {
    const requests: PermissionRequest[] = [];
    const answer = (value: boolean) => async (request: PermissionRequest) => {
      requests.push(request);
      return value;
    };
    expect(await checkPermission(bashTool, { command: "npm install" }, policy({ ask: answer(true) }))).toEqual({
      behavior: "allow",
    });
    expect(requests).toEqual([{ tool: "Bash", input: { command: "npm install" }, summary: "Bash(npm install)" }]);
    const denied = await checkPermission(bashTool, { command: "rm -rf build" }, policy({ ask: answer(false) }));
    expect(denied).toEqual({
      behavior: "deny",
      asked: { reason: "" },
      message: "The user denied permission for Bash(rm -rf build). Do not retry it; ask the user what to do instead.",
    });
    // A no with a reason: the model reads what the person said instead.
    const withReason = await checkPermission(
      bashTool,
      { command: "rm -rf build" },
      policy({ ask: async () => ({ allow: false, reason: "  clean with npm run clean  " }) }),
    );
    expect(withReason).toEqual({
      behavior: "deny",
      asked: { reason: "clean with npm run clean" },
      message: "The user denied permission for Bash(rm -rf build) and said: clean with npm run clean",
    });
  });

  it("a failing ask callback denies with the reason", async () => {
    const ask = async () => {
      throw new Error("terminal closed");
    };
    const decision = await checkPermission(writeTool, write, policy({ ask }));
    expect(decision).toEqual({
      behavior: "deny",
      message: "Permission denied: asking the user about Write(a.txt) failed (terminal closed).",
    });
  });

  it("acceptEdits allows Write and Edit but still asks for Bash", async () => {
    const asked: string[] = [];
    const ask = async (request: PermissionRequest) => {
      asked.push(request.summary);
      return false;
    };
    const accepting = policy({ mode: "acceptEdits", ask });
    expect(await checkPermission(writeTool, write, accepting)).toEqual({ behavior: "allow" });
    expect(await checkPermission(editTool, edit, accepting)).toEqual({ behavior: "allow" });
    expect((await checkPermission(bashTool, { command: "make" }, accepting)).behavior).toBe("deny");
    expect(asked).toEqual(["Bash(make)"]);
  });

  it("bypassPermissions allows everything not denied; deny wins even there", async () => {
    expect(await checkPermission(bashTool, { command: "make" }, policy({ mode: "bypassPermissions" }))).toEqual({
      behavior: "allow",
    });
    const denied = await checkPermission(writeTool, write, policy({ mode: "bypassPermissions", deny: ["Write"] }));
    expect(denied).toEqual({
      behavior: "deny",
      message:
        'Permission denied: Write(a.txt) is blocked by the deny rule "Write". Do not retry it; find another way or ask the user.',
    });
    const readDenied = await checkPermission(readTool, { file_path: "x" }, policy({ deny: ["Read"], allow: ["Read"] }));
    expect(readDenied.behavior).toBe("deny");
  });

  it("allow rules by plain tool name skip asking", async () => {
    expect(await checkPermission(writeTool, write, policy({ allow: ["Write"] }))).toEqual({ behavior: "allow" });
    expect(await checkPermission(bashTool, { command: "make all" }, policy({ allow: ["Bash"] }))).toEqual({
      behavior: "allow",
    });
  });

  it("Bash prefix and exact allow rules match only simple commands", async () => {
    const allowTests = policy({ allow: ["Bash(npm test:*)", "Bash(make lint)"] });
    const decide = async (command: string) => (await checkPermission(bashTool, { command }, allowTests)).behavior;
    expect(await decide("npm test")).toBe("allow");
    expect(await decide("npm test -- --watch=false")).toBe("allow");
    expect(await decide("CI=1 npm test")).toBe("allow");
    expect(await decide("make lint")).toBe("allow");
    expect(await decide("make lint fix")).toBe("deny");
    expect(await decide("npm testing")).toBe("deny");
    expect(await decide("npm test && rm -rf /")).toBe("deny");
    expect(await decide("npm test > out.txt")).toBe("deny");
    expect(await decide("npm test $(rm -rf x)")).toBe("deny");
  });

  it("Bash prefix deny rules catch the command anywhere in a chain or substitution", async () => {
    const denyRm = policy({ mode: "bypassPermissions", deny: ["Bash(rm:*)"] });
    const decide = async (command: string) => (await checkPermission(bashTool, { command }, denyRm)).behavior;
    expect(await decide("rm -rf build")).toBe("deny");
    expect(await decide("echo ok && rm -rf build")).toBe("deny");
    expect(await decide("echo $(rm -rf build)")).toBe("deny");
    expect(await decide("X=1 rm file")).toBe("deny");
    expect(await decide("ls build")).toBe("allow");
  });
});

describe('a program named in quotes (published plugin commands write "<root>/script.sh" args)', () => {
  const allowed = async (command: string) =>
    (await checkPermission(bashTool, { command }, policy({ allow: ["Bash(/opt/kit/start.sh:*)"] }))).behavior;

  it("matches the prefix rule as the unquoted program does", async () => {
    expect(await allowed('"/opt/kit/start.sh" Fix the tests --rounds 3')).toBe("allow");
    expect(await allowed("'/opt/kit/start.sh' x")).toBe("allow");
    expect(await allowed("/opt/kit/start.sh x")).toBe("allow");
  });

  it("never when the quotes hold more than the program, or another program", async () => {
    expect(await allowed('"/opt/kit/start.sh x" y')).toBe("deny");
    expect(await allowed('"/opt/kit/start.sh\'" y')).toBe("deny");
    expect(await allowed('"/opt/kit/start.shx" y')).toBe("deny");
    expect(await allowed('"/opt/kit/start.sh"x y')).toBe("deny");
  });
});

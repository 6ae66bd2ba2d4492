/**
 * Claude Code's `~/.claude.json`, read and written by home/claude-json.ts. Oracles are literal file texts in
 * Claude Code's layout (`JSON.stringify(value, null, 2)`, as `claude mcp add` and the trust dialog leave it):
 * what a folder's trust record means, and that a write adds its one key and leaves every other byte.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  claudeCodeServers,
  claudeJsonPath,
  isTrustedByClaudeCode,
  readClaudeJson,
  recordClaudeCodeTrust,
  updateClaudeJson,
} from "../../src/home/index.js";

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function home(): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "threadline-claude-json-")));
  made.push(directory);
  return directory;
}

/** A record as Claude Code 2.1 leaves it: account keys, a project with history, a user-scope server. */
function recordText(project: string, trusted: boolean): string {
  return `${JSON.stringify(
    {
      numStartups: 41,
      installMethod: "native",
      oauthAccount: { emailAddress: "dev@example.com", organizationUuid: "0f6c…" },
      projects: {
        [project]: {
          allowedTools: [],
          history: [{ display: "fix the “flaky” test ✓", pastedContents: {} }],
          mcpServers: { local1: { type: "stdio", command: "node", args: ["l.js"], env: {} } },
          hasTrustDialogAccepted: trusted,
          lastCost: 0.123456789,
        },
      },
      mcpServers: { user1: { type: "http", url: "https://mcp.example.com/mcp" } },
    },
    null,
    2,
  )}\n`;
}

describe("~/.claude.json", () => {
  it("is $CLAUDE_CONFIG_DIR/.claude.json when set, else <HOME>/.claude.json", () => {
    expect(claudeJsonPath({ HOME: "/u" })).toBe("/u/.claude.json");
    expect(claudeJsonPath({ HOME: "/u", CLAUDE_CONFIG_DIR: "/c" })).toBe("/c/.claude.json");
  });

  // Guards: Claude Code's own trust record is honoured, for the folder and the folders below it, and only
  // `true` counts. Mutations caught: `claude-json-trust-any-value` (a present key trusting whatever its value),
  // `claude-json-trust-no-parents` (the walk up stopping at the folder).
  it("trusts a folder whose project entry (or a parent's) has hasTrustDialogAccepted: true, nothing else", () => {
    const directory = home();
    const project = join(directory, "repo");
    mkdirSync(join(project, "packages", "a"), { recursive: true });
    const path = join(directory, ".claude.json");
    expect(isTrustedByClaudeCode(project, path)).toBe(false); // no file: not trusted
    writeFileSync(path, recordText(project, false));
    expect(isTrustedByClaudeCode(project, path)).toBe(false);
    writeFileSync(path, recordText(project, true));
    expect(isTrustedByClaudeCode(project, path)).toBe(true);
    expect(isTrustedByClaudeCode(join(project, "packages", "a"), path)).toBe(true);
    expect(isTrustedByClaudeCode(directory, path)).toBe(false); // the parent of a trusted folder is not
    writeFileSync(path, "{ not json");
    expect(isTrustedByClaudeCode(project, path)).toBe(false);
  });

  it("hands out the user-scope and this folder's local-scope servers", () => {
    const directory = home();
    const project = join(directory, "repo");
    mkdirSync(project);
    const path = join(directory, ".claude.json");
    writeFileSync(path, recordText(project, true));
    const read = readClaudeJson(path);
    if (read.kind !== "read") throw new Error("not read");
    expect(claudeCodeServers(read.document, project)).toEqual({
      user: { user1: { type: "http", url: "https://mcp.example.com/mcp" } },
      local: { local1: { type: "stdio", command: "node", args: ["l.js"], env: {} } },
    });
    expect(claudeCodeServers(read.document, directory).local).toBeUndefined();
  });

  // Guards: a yes writes exactly one key where Claude Code keeps it and every other byte stays. Mutation caught:
  // `claude-json-write-any-layout` (rewriting a file that is not in Claude Code's layout).
  it("records trust by adding the one key, every other byte kept; a file in another layout is left alone", () => {
    const directory = home();
    const project = join(directory, "repo");
    mkdirSync(project);
    const path = join(directory, ".claude.json");
    const before = recordText(project, false);
    writeFileSync(path, before);
    expect(recordClaudeCodeTrust(project, path)).toEqual({ kind: "written" });
    expect(readFileSync(path, "utf8")).toBe(
      before.replace('"hasTrustDialogAccepted": false', '"hasTrustDialogAccepted": true'),
    );
    expect(recordClaudeCodeTrust(project, path)).toEqual({ kind: "unchanged" });

    const other = join(directory, "other");
    mkdirSync(other);
    const minified = JSON.stringify({ numStartups: 1, projects: {} });
    writeFileSync(path, minified);
    const refused = recordClaudeCodeTrust(other, path);
    expect(refused.kind).toBe("refused");
    expect(readFileSync(path, "utf8")).toBe(minified);
  });

  it("adds a new project entry holding only the trust key; never creates the file", () => {
    const directory = home();
    const project = join(directory, "fresh");
    mkdirSync(project);
    const path = join(directory, ".claude.json");
    expect(recordClaudeCodeTrust(project, path)).toEqual({ kind: "unchanged" });
    expect(existsSync(path)).toBe(false);
    writeFileSync(path, '{\n  "numStartups": 3\n}');
    expect(recordClaudeCodeTrust(project, path).kind).toBe("written");
    expect(readFileSync(path, "utf8")).toBe(
      `{\n  "numStartups": 3,\n  "projects": {\n    "${project}": {\n      "hasTrustDialogAccepted": true\n    }\n  }\n}`,
    );
  });

  // Guards: a change another program made after our read is never overwritten. Mutation caught:
  // `claude-json-no-recheck` (renaming without looking at the file again).
  it("reads again when the file changed between its read and the rename, keeping the other writer's change", () => {
    const directory = home();
    const path = join(directory, ".claude.json");
    writeFileSync(path, '{\n  "numStartups": 3\n}\n');
    let calls = 0;
    const result = updateClaudeJson(path, (document) => {
      calls++;
      // Claude Code writes its counter while we are between read and rename (the first time only).
      if (calls === 1) writeFileSync(path, '{\n  "numStartups": 4\n}\n');
      document.mine = true;
      return true;
    });
    expect(result).toEqual({ kind: "written" });
    expect(calls).toBe(2);
    expect(readFileSync(path, "utf8")).toBe('{\n  "numStartups": 4,\n  "mine": true\n}\n');
  });

  it("changes nothing while another writer holds the lock", () => {
    const directory = home();
    const path = join(directory, ".claude.json");
    writeFileSync(path, '{\n  "numStartups": 3\n}\n');
    mkdirSync(`${path}.lock`);
    const result = updateClaudeJson(
      path,
      (document) => {
        document.mine = true;
        return true;
      },
      { lockWaitMs: 100 },
    );
    expect(result.kind).toBe("refused");
    expect(readFileSync(path, "utf8")).toBe('{\n  "numStartups": 3\n}\n');
    expect(existsSync(`${path}.lock`)).toBe(true); // theirs, not removed
  });
});

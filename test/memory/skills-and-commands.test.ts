/** Skills and custom commands on real folders laid out as a user would: the project's and the user's. */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type CustomCommand,
  createSkillTool,
  customCommandPrompt,
  expandCommand,
  loadCustomCommands,
  loadSkills,
  parseFrontMatter,
  type UserPlaces,
} from "../../src/memory/index.js";

async function places(files: Record<string, string>): Promise<UserPlaces> {
  const base = await mkdtemp(join(tmpdir(), "threadline-skills-"));
  const place = { cwd: join(base, "repo"), userHome: join(base, "home"), threadlineHome: join(base, "tl") };
  for (const [relative, text] of Object.entries(files)) {
    const path = relative.startsWith("~/")
      ? join(place.userHome, relative.slice(2))
      : relative.startsWith("tl/")
        ? join(place.threadlineHome, relative.slice(3))
        : join(place.cwd, relative);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
  return place;
}

describe("skills", () => {
  it("reads SKILL.md front matter from the project, ~/.claude and threadline's home; the project wins a name", async () => {
    const place = await places({
      ".claude/skills/release/SKILL.md":
        "---\nname: release\ndescription: Cut a release of this project\n---\nSteps: bump, tag, push.\n",
      ".claude/skills/release/checklist.md": "- changelog\n",
      "~/.claude/skills/release/SKILL.md": "---\nname: release\ndescription: The user's release\n---\nUser steps.\n",
      "~/.claude/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Fill PDF forms\n---\nUse pdftk.\n",
      "tl/skills/notes/SKILL.md": "# Take notes\nWrite them down.\n",
      ".claude/skills/empty/README.md": "not a skill\n",
    });
    const { skills, notices } = await loadSkills(place);
    expect(notices).toEqual([]);
    // Mutation caught: user skills overriding the project's (the user's description would show).
    expect(skills.map((skill) => [skill.name, skill.description, skill.scope])).toEqual([
      ["notes", "Take notes", "user"],
      ["pdf", "Fill PDF forms", "user"],
      ["release", "Cut a release of this project", "project"],
    ]);
  });

  it("a SKILL.md whose front matter is neither YAML nor key: value lines is one notice line and still listed", async () => {
    const place = await places({ ".claude/skills/bad/SKILL.md": "---\nname: [unclosed\n!!! not a key\n---\nBody.\n" });
    const { skills, notices } = await loadSkills(place);
    expect(skills.map((skill) => skill.name)).toEqual(["bad"]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^skills: .*bad\/SKILL\.md: front matter is not valid YAML \(.+\); listed it by its folder name$/,
    );
  });

  it("the Skill tool lists names and descriptions and returns the body with its folder", async () => {
    const place = await places({
      ".claude/skills/release/SKILL.md":
        "---\nname: release\ndescription: Cut a release\n---\nSteps: bump, tag, push.\n",
    });
    const tool = createSkillTool((await loadSkills(place)).skills)!;
    expect(tool.description).toContain("- release: Cut a release");
    // The body is not in the description (loaded on demand only). Mutation caught: body listed up front.
    expect(tool.description).not.toContain("bump, tag, push");
    const context = {
      cwd: place.cwd,
      additionalDirectories: [],
      signal: new AbortController().signal,
      toolUseId: "t",
      onProgress: () => {},
    };
    const result = await tool.call({ skill: "release" }, context);
    expect(result.content).toBe(
      `Skill "release" (base directory: ${join(place.cwd, ".claude", "skills", "release")}):\n\nSteps: bump, tag, push.`,
    );
    const missing = await tool.call({ skill: "nope" }, context);
    expect(missing).toEqual({ content: 'Error: no skill named "nope". Available: release', isError: true });
    expect(createSkillTool([])).toBeUndefined();
  });
});

describe("custom commands", () => {
  const command = (body: string): CustomCommand => ({
    name: "c",
    description: "d",
    allowedTools: [],
    body,
    path: "/x/c.md",
    scope: "project",
  });

  it("replaces $ARGUMENTS and $1…$9, quoted words kept whole", () => {
    expect(expandCommand(command("Fix #$ARGUMENTS now."), "123 urgent")).toBe("Fix #123 urgent now.");
    expect(expandCommand(command("Review $1 at $2."), '"PR 7" high')).toBe("Review PR 7 at high.");
    // Mutation caught: arguments dropped when the body names no placeholder.
    expect(expandCommand(command("Open a pull request."), "draft")).toBe("Open a pull request.\n\nARGUMENTS: draft");
    expect(expandCommand(command("Open a pull request."), "")).toBe("Open a pull request.");
  });

  it("names a file in a subfolder ns:name, reads description, argument-hint and allowed-tools", async () => {
    const place = await places({
      ".claude/commands/fix.md":
        "---\ndescription: Fix an issue\nargument-hint: <n>\nallowed-tools: Bash(git add:*, git commit:*), Read\n---\nFix $ARGUMENTS.\n",
      ".claude/commands/gh/pr.md": "# Open a PR\nDo it.\n",
      "~/.claude/commands/fix.md": "User fix.\n",
      "~/.claude/commands/mine.md": "Mine.\n",
    });
    const { commands, notices } = await loadCustomCommands(place);
    expect(notices).toEqual([]);
    expect(commands.map((c) => [c.name, c.description, c.scope, c.allowedTools, c.argumentHint])).toEqual([
      ["fix", "Fix an issue", "project", ["Bash(git add:*, git commit:*)", "Read"], "<n>"],
      ["gh:pr", "Open a PR", "project", [], undefined],
      ["mine", "Mine.", "user", [], undefined],
    ]);
    expect(customCommandPrompt("/gh:pr", commands)?.prompt).toBe("# Open a PR\nDo it.");
    expect(customCommandPrompt("/fix 42", commands)?.prompt).toBe("Fix 42.");
    expect(customCommandPrompt("/unknown 42", commands)).toBeUndefined();
    expect(customCommandPrompt("/usr/bin/env", commands)).toBeUndefined();
  });

  it("front matter that is never closed is kept as the prompt", async () => {
    expect(await parseFrontMatter("---\ndescription: x\nno end")).toEqual({
      data: {},
      body: "---\ndescription: x\nno end",
      problem: "front matter opened with --- is never closed",
    });
  });
});

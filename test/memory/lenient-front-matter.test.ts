/**
 * Front matter read as leniently as Claude Code reads it (docs/MEMORY.md "Front matter"): YAML first, then
 * `key: value` lines, so `argument-hint: [user prompt] [orchestration prompt]` (not YAML) keeps the command's
 * other keys and its body apart; custom agents' front matter; skills named by their folder.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findSkill, loadCustomAgents, loadSkills, parseFrontMatter } from "../../src/memory/index.js";
import { makeTempDir } from "../../support/temp-dir.js";

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tree(files: Record<string, string>) {
  const root = await makeTempDir("threadline-front-matter-");
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return { cwd: join(root, "project"), userHome: join(root, "home"), threadlineHome: join(root, "tl") };
}

describe("lenient front matter", () => {
  it("argument-hint: [a] [b] is not a YAML error: every key is kept and the body is the body", async () => {
    const text =
      "---\ndescription: Orchestrate\nargument-hint: [user prompt] [orchestration prompt]\nallowed-tools: Bash(git status:*), Read\nhooks:\n  Stop:\n    - command: x\n---\nBODY $ARGUMENTS\n";
    const parsed = await parseFrontMatter(text);
    expect(parsed.problem).toBeUndefined();
    expect(parsed.data["argument-hint"]).toBe("[user prompt] [orchestration prompt]");
    expect(parsed.data.description).toBe("Orchestrate");
    expect(parsed.data["allowed-tools"]).toBe("Bash(git status:*), Read");
    expect(parsed.body).toBe("BODY $ARGUMENTS\n");
  });

  // The shape of published plugins' agents (plugin-dev, pr-review-toolkit, hookify): a description whose examples
  // run over unindented lines with `Context:` / `user:` / `assistant:` labels, then more keys. Not YAML.
  const examplesAgent = [
    "---",
    "name: fixture-reviewer",
    'description: Use this agent when the person asks to "review a change". Examples:',
    "",
    "<example>",
    "Context: A change was just made",
    'user: "Review my change"',
    'assistant: "I will use the fixture-reviewer agent."',
    "</example>",
    "",
    "model: sonnet",
    "color: magenta",
    'tools: ["Read", "Grep"]',
    "---",
    "You review changes.",
    "",
  ].join("\n");

  it("a multi-line description with unindented examples is read whole, and the keys after it too", async () => {
    const parsed = await parseFrontMatter(examplesAgent);
    expect(parsed.problem).toBeUndefined();
    expect(parsed.data.description).toBe(
      'Use this agent when the person asks to "review a change". Examples:\n\n<example>\nContext: A change was just made\nuser: "Review my change"\nassistant: "I will use the fixture-reviewer agent."\n</example>',
    );
    // `user:` and `assistant:` inside the examples are text, not keys.
    expect(Object.keys(parsed.data).sort()).toEqual(["color", "description", "model", "name", "tools"]);
    expect(parsed.data.tools).toEqual(["Read", "Grep"]);
    expect(parsed.data.model).toBe("sonnet");
    expect(parsed.body).toBe("You review changes.\n");
  });

  it("a key of the author's own with a value that is not YAML is read line by line, keeping every key", async () => {
    // `team-notes` is no key Claude Code uses, so the prose reading does not take it; the line-wise one does.
    const parsed = await parseFrontMatter("---\nteam-notes: [a] [b]\ndescription: Notes\n---\nB\n");
    expect(parsed.problem).toBeUndefined();
    expect(parsed.data).toEqual({ "team-notes": "[a] [b]", description: "Notes" });
    expect(parsed.body).toBe("B\n");
  });

  it("unindented lines after a key that is not prose are still a problem, with the file kept whole", async () => {
    const text = "---\nname: [unclosed\n!!! not a key\n---\nBody.\n";
    const parsed = await parseFrontMatter(text);
    expect(parsed.problem).toMatch(/^front matter is not valid YAML/);
    expect(parsed.body).toBe(text);
  });

  it("a command with a nested hooks block and a model: keeps both, and the body is the body", async () => {
    const text = [
      "---",
      "description: Check: run the checks",
      "model: haiku",
      "hooks:",
      "  PreToolUse:",
      '    - matcher: "Bash"',
      "      hooks:",
      "        - type: command",
      '          command: "echo pre"',
      "---",
      "Run the checks.",
      "",
    ].join("\n");
    const parsed = await parseFrontMatter(text);
    expect(parsed.problem).toBeUndefined();
    expect(parsed.data.description).toBe("Check: run the checks");
    expect(parsed.data.model).toBe("haiku");
    expect(parsed.data.hooks).toEqual({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo pre" }] }],
    });
    expect(parsed.body).toBe("Run the checks.\n");
  });

  it("agents in sub-folders of .claude/agents are offered, with their multi-line descriptions", async () => {
    const place = await tree({
      "project/.claude/agents/review/fixture-reviewer.md": examplesAgent,
      "project/.claude/agents/ops/deep/deploy.md": "---\ndescription: Deploys\n---\nDEPLOY\n",
      "project/.claude/agents/top.md": "---\ndescription: Top\n---\nTOP\n",
    });
    const { agents, notices } = await loadCustomAgents(place);
    expect(agents.map((agent) => agent.name).sort()).toEqual(["deploy", "fixture-reviewer", "top"]);
    expect(agents.find((agent) => agent.name === "fixture-reviewer")?.description).toContain("<example>");
    expect(agents.find((agent) => agent.name === "fixture-reviewer")?.tools).toEqual(["Read", "Grep"]);
    expect(notices.filter((line) => line.includes("not valid YAML"))).toEqual([]);
    // `color:` in one file is named with that file.
    expect(notices.filter((line) => line.includes("color not acted on"))).toEqual([
      `agents: ${join(place.cwd, ".claude/agents/review/fixture-reviewer.md")}: color not acted on by threadline`,
    ]);
  });

  it("a key no agent's front matter is acted on is one line however many files use it", async () => {
    const place = await tree({
      "project/.claude/agents/a.md": "---\ndescription: A\ncolor: red\n---\nA\n",
      "project/.claude/agents/b.md": "---\ndescription: B\ncolor: blue\n---\nB\n",
      "project/.claude/agents/c.md": "---\ndescription: C\ncolor: green\n---\nC\n",
    });
    const { notices } = await loadCustomAgents(place);
    expect(notices).toEqual([
      `agents: color not acted on by threadline (3 files, the first ${join(place.cwd, ".claude/agents/a.md")})`,
    ]);
  });
});

describe("skills by folder and custom agents", () => {
  it("a skill is named by its folder; its front matter name is only a second name", async () => {
    const place = await tree({
      "project/.claude/skills/hook-development/SKILL.md": "---\nname: Hook Development\ndescription: Hooks\n---\nB\n",
    });
    const { skills } = await loadSkills(place);
    expect(skills.map((skill) => skill.name)).toEqual(["hook-development"]);
    expect(findSkill(skills, "hook-development")?.path).toContain("hook-development");
    expect(findSkill(skills, "Hook Development")?.name).toBe("hook-development");
  });

  it("disable-model-invocation keeps a skill out of the model's list", async () => {
    const place = await tree({
      "project/.claude/skills/deploy/SKILL.md": "---\ndescription: Deploy\ndisable-model-invocation: true\n---\nB\n",
    });
    const { skills } = await loadSkills(place);
    expect(skills[0]?.modelInvocable).toBe(false);
  });

  it("agents: name, description, tools and model; a project agent overrides a user agent of its name", async () => {
    const place = await tree({
      "home/.claude/agents/checker.md": "---\nname: checker\ndescription: user one\n---\nUSER\n",
      "project/.claude/agents/checker.md":
        "---\nname: checker\ndescription: project one\ntools: Read, Bash(git:*), Task\nmodel: inherit\npermissionMode: plan\n---\nPROJECT\n",
      "project/.claude/agents/nodesc.md": "---\nname: nodesc\n---\nX\n",
    });
    const { agents, notices } = await loadCustomAgents(place);
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({ name: "checker", description: "project one", systemPrompt: "PROJECT" });
    expect(agents[0]?.tools).toEqual(["Read", "Bash", "Agent"]);
    expect(agents[0]?.model).toBeUndefined();
    expect(notices.some((line) => line.includes("permissionMode not acted on"))).toBe(true);
    expect(notices.some((line) => line.includes("nodesc.md: no description"))).toBe(true);
  });
});

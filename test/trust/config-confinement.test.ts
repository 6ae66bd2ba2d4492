/**
 * Skills and commands confined like Read (issue 39 item 4): a SKILL.md, a skill folder or a command file that is
 * a symlink out of the workspace and the user's config folders is refused with one line. Oracles: /etc/passwd's
 * own first line (read here, independently) never appears in the Skill tool's description or result.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createSkillTool,
  loadCustomAgents,
  loadCustomCommands,
  loadSkills,
  type UserPlaces,
} from "../../src/memory/index.js";

const PASSWD_FIRST_LINE = readFileSync("/etc/passwd", "utf8").split("\n")[0] ?? "";

async function layout(): Promise<{ place: UserPlaces; outside: string }> {
  const base = await mkdtemp(join(tmpdir(), "threadline-confine-"));
  const place = { cwd: join(base, "repo"), userHome: join(base, "home"), threadlineHome: join(base, "tl") };
  const outside = join(base, "outside");
  await mkdir(join(place.cwd, ".claude", "skills", "good"), { recursive: true });
  await writeFile(
    join(place.cwd, ".claude", "skills", "good", "SKILL.md"),
    "---\nname: good\ndescription: Fine\n---\nOk.\n",
  );
  await mkdir(join(outside, "stolen"), { recursive: true });
  await writeFile(join(outside, "stolen", "SKILL.md"), "OUTSIDE-SECRET-LINE\nmore\n");
  return { place, outside };
}

describe("skills and commands confined like Read", () => {
  it("a SKILL.md symlinked to /etc/passwd is refused: not listed, not returned", async () => {
    const { place } = await layout();
    await mkdir(join(place.cwd, ".claude", "skills", "passwd"), { recursive: true });
    await symlink("/etc/passwd", join(place.cwd, ".claude", "skills", "passwd", "SKILL.md"));
    const { skills, notices } = await loadSkills(place);
    expect(skills.map((skill) => skill.name)).toEqual(["good"]);
    expect(notices).toEqual([
      `skills: ${join(place.cwd, ".claude", "skills", "passwd", "SKILL.md")} refused: it leads to /etc/passwd, outside the workspace and your config folders; skill not loaded`,
    ]);
    const tool = createSkillTool(skills);
    expect(tool?.description).not.toContain(PASSWD_FIRST_LINE);
    const result = await tool?.call({ skill: "passwd" }, {} as never);
    expect(String(result?.content)).toContain('no skill named "passwd"');
    expect(String(result?.content)).not.toContain(PASSWD_FIRST_LINE);
  });

  it("a skill folder symlinked out of the workspace is refused; one inside the user's config folder is kept", async () => {
    const { place, outside } = await layout();
    await symlink(join(outside, "stolen"), join(place.cwd, ".claude", "skills", "stolen"));
    await mkdir(join(place.userHome, ".claude", "shared", "mine"), { recursive: true });
    await writeFile(
      join(place.userHome, ".claude", "shared", "mine", "SKILL.md"),
      "---\nname: mine\ndescription: Mine\n---\nx\n",
    );
    await symlink(join(place.userHome, ".claude", "shared", "mine"), join(place.cwd, ".claude", "skills", "mine"));
    const { skills, notices } = await loadSkills(place);
    expect(skills.map((skill) => skill.name)).toEqual(["good", "mine"]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("stolen/SKILL.md refused: it leads to");
    expect(createSkillTool(skills)?.description).not.toContain("OUTSIDE-SECRET-LINE");
  });

  it("a commands folder symlinked out of the workspace is refused with a line", async () => {
    const { place, outside } = await layout();
    await writeFile(join(outside, "deploy.md"), "Deploy everything\n");
    await symlink(outside, join(place.cwd, ".claude", "commands"));
    const { commands, notices } = await loadCustomCommands(place);
    expect(commands.map((command) => command.name)).toEqual([]);
    expect(notices.some((line) => line.startsWith("commands: ") && line.includes("deploy.md refused"))).toBe(true);
  });

  it("an agent file symlinked out of the workspace is refused; its text never becomes a subagent type", async () => {
    const { place, outside } = await layout();
    await writeFile(join(outside, "spy.md"), "---\nname: spy\ndescription: OUTSIDE-SECRET-LINE\n---\nLeak.\n");
    await mkdir(join(place.cwd, ".claude", "agents"), { recursive: true });
    await writeFile(join(place.cwd, ".claude", "agents", "ok.md"), "---\nname: ok\ndescription: Fine\n---\nHelp.\n");
    await symlink(join(outside, "spy.md"), join(place.cwd, ".claude", "agents", "spy.md"));
    const { agents, notices } = await loadCustomAgents(place);
    expect(agents.map((agent) => agent.name)).toEqual(["ok"]);
    expect(notices.join("\n")).not.toContain("OUTSIDE-SECRET-LINE");
  });
});

/**
 * The Skill tool in a session over real HTTP: offered when a project or user skill
 * exists, its description listing names and descriptions, the same tools block in every request; a call
 * loads the body as the tool result, and a file beside SKILL.md is read with Read.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmulatorRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("Skill tool", () => {
  it("lists skills at a fixed place and loads a body on demand", async () => {
    const userHome = await mkdtemp(join(tmpdir(), "threadline-user-"));
    await mkdir(join(userHome, ".claude", "skills", "pdf"), { recursive: true });
    await writeFile(
      join(userHome, ".claude", "skills", "pdf", "SKILL.md"),
      "---\nname: pdf\ndescription: Fill PDF forms\n---\nUse pdftk.\n",
    );
    harness = await startHarness(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Skill", input: { skill: "release" } }] },
          {
            content: [{ type: "tool_use", name: "Read", input: { file_path: ".claude/skills/release/checklist.md" } }],
          },
          "Released.",
        ],
      },
      { env: { PATH: process.env.PATH ?? "", HOME: userHome } },
    );
    const skill = join(harness.workspace, ".claude", "skills", "release");
    await mkdir(skill, { recursive: true });
    await writeFile(join(skill, "SKILL.md"), "---\nname: release\ndescription: Cut a release\n---\nBump, tag, push.\n");
    await writeFile(join(skill, "checklist.md"), "- changelog updated\n");
    expect(turnEnd(await collect(harness.engine.submitMessage("Release it."))).reason).toBe("completed");
    const bodies = harness.emulator.requests
      .filter((record) => record.path === "/v1/messages")
      .map((record) => record.body as EmulatorRequest);
    expect(bodies).toHaveLength(3);
    const tools = bodies.map((body) => JSON.stringify(body.tools));
    // The tools block never changes mid-session. Mutation caught: the tool made per request.
    expect(new Set(tools).size).toBe(1);
    const description = (bodies[0]!.tools as Array<{ name: string; description: string }>).find(
      (tool) => tool.name === "Skill",
    )!.description;
    expect(description).toContain("- pdf: Fill PDF forms");
    expect(description).toContain("- release: Cut a release");
    // The body reached the model only after the call.
    expect(JSON.stringify(bodies[0]!.messages)).not.toContain("Bump, tag, push.");
    expect(JSON.stringify(bodies[1]!.messages)).toContain("Bump, tag, push.");
    expect(JSON.stringify(bodies[2]!.messages)).toContain("changelog updated");
  });

  it.each([
    ["there is no skill", false, true],
    ["memory files are off", true, false],
  ])("is not offered when %s", async (_, withSkill, memoryFiles) => {
    const userHome = await mkdtemp(join(tmpdir(), "threadline-user-"));
    if (withSkill) {
      await mkdir(join(userHome, ".claude", "skills", "pdf"), { recursive: true });
      await writeFile(
        join(userHome, ".claude", "skills", "pdf", "SKILL.md"),
        "---\nname: pdf\ndescription: d\n---\nx\n",
      );
    }
    harness = await startHarness(
      { scenario: ["Hi."] },
      { memoryFiles, env: { PATH: process.env.PATH ?? "", HOME: userHome } },
    );
    expect(turnEnd(await collect(harness.engine.submitMessage("Hello."))).reason).toBe("completed");
    const body = harness.emulator.requests.find((record) => record.path === "/v1/messages")!.body as EmulatorRequest;
    expect((body.tools as Array<{ name: string }>).map((tool) => tool.name)).not.toContain("Skill");
  });
});

import { describe, expect, it } from "vitest";
import { toolDefinition } from "../../src/request/index.js";
import { defaultTools } from "../../src/tools/index.js";

describe("defaultTools", () => {
  it("offers Claude Code's six tools, all compactable, with read-only flags as specified", () => {
    const tools = defaultTools();
    expect(tools.map((tool) => tool.name)).toEqual(["Bash", "Glob", "Grep", "Read", "Edit", "Write"]);
    expect(tools.every((tool) => tool.compactable)).toBe(true);
    const readOnly = (name: string, input: unknown) => tools.find((tool) => tool.name === name)?.isReadOnly(input);
    expect(readOnly("Read", { file_path: "a" })).toBe(true);
    expect(readOnly("Grep", { pattern: "a" })).toBe(true);
    expect(readOnly("Glob", { pattern: "a" })).toBe(true);
    expect(readOnly("Write", { file_path: "a", content: "" })).toBe(false);
    expect(readOnly("Edit", { file_path: "a", old_string: "a", new_string: "b" })).toBe(false);
    expect(readOnly("Bash", { command: "git status" })).toBe(true);
    expect(readOnly("Bash", { command: "npm install" })).toBe(false);
  });

  it("produces API tool definitions with Claude Code's input schemas", () => {
    const read = defaultTools().find((tool) => tool.name === "Read");
    expect(read).toBeDefined();
    const definition = toolDefinition(read!);
    expect(definition.input_schema).toMatchObject({
      type: "object",
      required: ["file_path"],
      additionalProperties: false,
      properties: {
        file_path: { type: "string", description: "The absolute path to the file to read" },
        offset: { type: "integer" },
        limit: { type: "integer" },
      },
    });
    expect(definition.input_schema).not.toHaveProperty("$schema");
    const edit = toolDefinition(defaultTools().find((tool) => tool.name === "Edit")!);
    expect(Object.keys(edit.input_schema.properties as object)).toEqual([
      "file_path",
      "old_string",
      "new_string",
      "replace_all",
    ]);
    const bash = toolDefinition(defaultTools().find((tool) => tool.name === "Bash")!);
    expect(bash.input_schema.required).toEqual(["command"]);
  });
});

/** Permission rules name MCP tools as Claude Code's do: `mcp__server`, `mcp__server__*`, `mcp__server__tool`. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkPermission } from "../../src/tools/permissions/permissions.js";
import type { AnyTool } from "../../src/tools/types.js";

function mcp(name: string): AnyTool {
  return {
    name,
    description: "",
    inputSchema: z.record(z.string(), z.unknown()),
    isReadOnly: () => false,
    compactable: true,
    call: async () => ({ content: "" }),
  };
}

async function decide(tool: string, rules: { allow?: string[]; deny?: string[] }, mode = "default" as const) {
  return (await checkPermission(mcp(tool), {}, { mode, allow: rules.allow ?? [], deny: rules.deny ?? [] })).behavior;
}

describe("MCP names in permission rules", () => {
  it("a server rule covers its tools and no other server's, with or without __*", async () => {
    expect(await decide("mcp__fs__read_file", { allow: ["mcp__fs"] })).toBe("allow");
    expect(await decide("mcp__fs__read_file", { allow: ["mcp__fs__*"] })).toBe("allow");
    expect(await decide("mcp__fs__read_file", { allow: ["mcp__fs__read_file"] })).toBe("allow");
    // Mutation caught: matching by plain prefix (mcp__fs would also allow the server named fs2).
    expect(await decide("mcp__fs2__read_file", { allow: ["mcp__fs"] })).toBe("deny");
    expect(await decide("mcp__fs__write_file", { allow: ["mcp__fs__read_file"] })).toBe("deny");
  });

  it("a deny rule on a server holds in bypass mode", async () => {
    expect(
      (
        await checkPermission(
          mcp("mcp__fs__write_file"),
          {},
          { mode: "bypassPermissions", allow: [], deny: ["mcp__fs"] },
        )
      ).behavior,
    ).toBe("deny");
  });
});

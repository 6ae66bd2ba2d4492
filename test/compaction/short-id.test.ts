import { describe, expect, it } from "vitest";
import { normalizeSnipId, shortId } from "../../src/messages/index.js";

describe("snip short ids", () => {
  it.each([
    ["00000000-0000-4000-8000-000000000000", "0"],
    ["0000000f-ff00-4000-8000-000000000000", "35r"],
    ["ffffffff-ffff-4fff-bfff-ffffffffffff", "e13wu1"],
    ["123e4567-e89b-12d3-a456-426614174000", "zzu1az"],
    ["550e8400-e29b-41d4-a716-446655440000", "4ntnke"],
  ])("%s → %s", (uuid, expected) => {
    expect(shortId(uuid)).toBe(expected);
  });

  it("reads only the first 10 hex digits", () => {
    expect(shortId("550e8400-e2ff-ffff-ffff-ffffffffffff")).toBe(shortId("550e8400-e200-0000-0000-000000000000"));
    // Six base-36 characters keep the high ~31 bits, so ids differ when the leading digits do.
    expect(shortId("650e8400-e29b-41d4-a716-446655440000")).not.toBe(shortId("550e8400-e29b-41d4-a716-446655440000"));
  });

  it("accepts the forms models copy back", () => {
    for (const form of ["4ntnke", "[id:4ntnke]", "id:4ntnke", " [id:4NTNKE] "])
      expect(normalizeSnipId(form)).toBe("4ntnke");
  });
});

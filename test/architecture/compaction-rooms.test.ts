/**
 * src/compaction/ in rooms named for their ideas (issue 54; docs/ARCHITECTURE.md "Rooms inside the folders"), as
 * src/tools/ is: every room has an index.ts, its face, naming what is used outside src/compaction/, and the
 * folder's own index.ts reaches a room's files only through that face, so files move inside a room without
 * touching the folder's surface. Oracles: the files on disk and the literal list of rooms.
 * Mutation caught: compaction-index-past-room-face.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const COMPACTION = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/compaction");

/** Specifiers of the `export … from` lines of a file's text. */
function reExports(text: string): string[] {
  return [...text.matchAll(/export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s+from\s+"([^"]+)"/g)].map((match) => match[1]!);
}

describe("src/compaction/ in rooms", () => {
  const rooms = readdirSync(COMPACTION, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

  it("has the rooms docs/ARCHITECTURE.md draws, each with an index.ts face", () => {
    expect(rooms).toEqual([
      "autocompact",
      "budget",
      "collapse",
      "microcompact",
      "overflow",
      "results",
      "snip",
      "summary",
      "tail",
    ]);
    expect(rooms.filter((room) => !existsSync(join(COMPACTION, room, "index.ts")))).toEqual([]);
  });

  it("compaction/index.ts enters every room through its face, and re-exports every face", () => {
    const specifiers = reExports(readFileSync(join(COMPACTION, "index.ts"), "utf8"));
    const intoRooms = specifiers.filter((specifier) => specifier.split("/").length > 2);
    expect(intoRooms.filter((specifier) => !specifier.endsWith("/index.js"))).toEqual([]);
    expect(intoRooms.map((specifier) => specifier.split("/")[1]).sort()).toEqual(rooms);
  });

  it("a room's face names its own files only (no face re-exports another room)", () => {
    const crossing = rooms.flatMap((room) =>
      reExports(readFileSync(join(COMPACTION, room, "index.ts"), "utf8"))
        .filter((specifier) => !/^\.\/[^/]+\.js$/.test(specifier))
        .map((specifier) => `${room}/index.ts -> ${specifier}`),
    );
    expect(crossing).toEqual([]);
  });
});

/**
 * Two import habits that keep a -p session's start-up memory down (docs/PERFORMANCE.md), checked on the source:
 * - zod is imported as a namespace (`import * as z from "zod"`): one named `import { z }` anywhere makes the
 *   bundle keep zod's whole `z` object, its 40 locales included (~450 KB against ~105 KB of parsed code);
 * - `yaml` is imported statically only by memory/yaml-parse.ts, which nothing imports statically: front matter
 *   loads it when a file has some.
 * Mutations applied once: `import { z } from "zod"` restored in src/settings/parse-settings-file.ts, and
 * `import { parse } from "yaml"` restored in src/memory/front-matter.ts, and a static import of ./yaml-parse.js
 * there; each fails its test naming the file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Each static import statement's bindings and specifier, per file relative to src/. */
function staticImports(): { file: string; bindings: string; specifier: string }[] {
  const statement = /^(?:import|export)\s+(?:type\s+)?([^;]*?)\s+from\s+["']([^"']+)["'];?/gm;
  return sourceFiles(SRC).flatMap((path) =>
    [...readFileSync(path, "utf8").matchAll(statement)].map((match) => ({
      file: relative(SRC, path),
      bindings: match[1] ?? "",
      specifier: match[2] ?? "",
    })),
  );
}

describe("start-up imports", () => {
  it("zod is imported as a namespace everywhere", () => {
    const zod = staticImports().filter((edge) => edge.specifier === "zod");
    expect(zod.length).toBeGreaterThan(0);
    expect(zod.filter((edge) => edge.bindings !== "* as z").map((edge) => edge.file)).toEqual([]);
  });

  it("yaml is imported statically only by a module that is itself loaded lazily", () => {
    const edges = staticImports();
    expect(edges.filter((edge) => edge.specifier === "yaml").map((edge) => edge.file)).toEqual([
      "memory/yaml-parse.ts",
    ]);
    expect(edges.filter((edge) => edge.specifier.endsWith("/yaml-parse.js")).map((edge) => edge.file)).toEqual([]);
  });
});

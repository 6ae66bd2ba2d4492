/**
 * bench/README.md holds no hand-copied figure: every section of figures sits between the markers of the script
 * that writes it (bench/lib/readme-section.ts), every marker pair belongs to a script that calls
 * writeReadmeSection with its name, and the text outside the markers has no figure in it (the shapes results
 * take: thousands-separated counts, ratios, percentages, times).
 *
 * Every section records what wrote it (script, arguments, commit, date, quick or slow); bench/check-fresh.ts
 * re-runs the quick ones in CI. No doc copies a bench ratio: docs point at the section instead.
 *
 * Mutation it catches (scripts/mutation-check.mjs): `bench-readme-figure-outside` (a cost copied into the
 * text outside the markers).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  provenanceLines,
  readmeSections,
  readProvenance,
  replaceReadmeSection,
  withoutProvenance,
} from "../../bench/lib/readme-section.js";

const ROOT = join(import.meta.dirname, "..", "..");
const BENCH = join(ROOT, "bench");
const README = readFileSync(join(BENCH, "README.md"), "utf8");

/** The section names scripts write, from their `writeReadmeSection("name", …)` calls. */
function writtenSections(): Map<string, string> {
  const sections = new Map<string, string>();
  for (const entry of readdirSync(BENCH, { withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const text = readFileSync(join(BENCH, entry.name), "utf8");
    for (const match of text.matchAll(/writeReadmeSection\(\s*"([a-z0-9-]+)"/g)) sections.set(match[1]!, entry.name);
  }
  return sections;
}

/** The README with every marked section removed (markers included). */
function outsideMarkers(readme: string): string {
  return readme.replace(/<!-- bench:([a-z0-9-]+) -->[\s\S]*?<!-- \/bench:\1 -->/g, "");
}

/** Price multipliers the text states as definitions (not results). */
const PRICES = new Set(["1×", "1.25×", "2×", "0.1×", "5×"]);

/** Shapes a measured result takes in this file. */
const FIGURE_SHAPES: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: "a thousands-separated count", pattern: /\b\d{1,3}(?:,\d{3})+\b/g },
  { name: "a ratio", pattern: /\b\d+(?:\.\d+)?\s?×/g },
  { name: "a percentage", pattern: /\b\d+(?:\.\d+)?\s?%/g },
  { name: "a time", pattern: /\b\d+(?:\.\d+)?\s?(?:ms|µs|s)\b/g },
  { name: "a size", pattern: /\b\d+(?:\.\d+)?\s?(?:KB|MB|GB|MiB)\b/g },
];

function figuresIn(text: string): string[] {
  const found: string[] = [];
  for (const { name, pattern } of FIGURE_SHAPES)
    for (const match of text.matchAll(pattern))
      if (!PRICES.has(match[0].replace(/\s/g, ""))) found.push(`${name}: "${match[0]}"`);
  return found;
}

describe("bench/README.md", () => {
  it("has one well-formed marker pair per section, each written by a script, and none left over", () => {
    const opens = [...README.matchAll(/<!-- bench:([a-z0-9-]+) -->/g)].map((match) => match[1]!);
    const closes = [...README.matchAll(/<!-- \/bench:([a-z0-9-]+) -->/g)].map((match) => match[1]!);
    expect(closes).toEqual(opens);
    expect(new Set(opens).size).toBe(opens.length);
    const written = writtenSections();
    // Every marker belongs to a script, and every script's section is in place (not appended at the end).
    expect(opens.filter((name) => !written.has(name))).toEqual([]);
    expect([...written.keys()].filter((name) => !opens.includes(name))).toEqual([]);
    // The old generated tail (everything after a marker rewritten by run-all) is gone.
    expect(README).not.toContain("<!-- results: written by bench/run-all.ts -->");
    expect(outsideMarkers(README)).not.toMatch(/<!-- \/?bench:/);
  });

  it("has no figure outside the markers (code examples aside)", () => {
    expect(figuresIn(outsideMarkers(README).replace(/```[\s\S]*?```/g, ""))).toEqual([]);
  });

  it("the figure check sees a copied figure (it is not vacuous)", () => {
    expect(figuresIn("The defaults cost 2,382,290 (0.671× autocompact only), 93.1 % hit, 1.2 ms.")).toEqual([
      'a thousands-separated count: "2,382,290"',
      'a ratio: "0.671×"',
      'a percentage: "93.1 %"',
      'a time: "1.2 ms"',
    ]);
    expect(figuresIn("write 1.25×, read 0.1×, output 5×")).toEqual([]);
  });
});

/**
 * Sections written before sections recorded their provenance (issue 45). Each is rewritten, with provenance,
 * the next time its script runs; remove its name here then. Nothing may be added to this list.
 */
const WITHOUT_PROVENANCE = new Set(["run-all"]);

describe("bench/README.md provenance", () => {
  it("every section records its script, arguments, commit, date and kind (or is a listed older one)", () => {
    const problems: string[] = [];
    for (const [name, body] of readmeSections(README)) {
      const provenance = readProvenance(body);
      if (provenance === undefined) {
        if (!WITHOUT_PROVENANCE.has(name)) problems.push(`${name}: no provenance`);
        continue;
      }
      if (WITHOUT_PROVENANCE.has(name)) problems.push(`${name}: has provenance now; remove it from WITHOUT_PROVENANCE`);
      if (!/^bench\/[a-z0-9-]+\.ts$/.test(provenance.script)) problems.push(`${name}: script ${provenance.script}`);
      if (!/^[0-9a-f]{7,40}(\+changes)?$/.test(provenance.commit))
        problems.push(`${name}: commit ${provenance.commit}`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(provenance.date)) problems.push(`${name}: date ${provenance.date}`);
      if (provenance.kind !== "quick" && provenance.kind !== "slow") problems.push(`${name}: kind ${provenance.kind}`);
    }
    expect(problems).toEqual([]);
  });

  it("reads back what it writes, and a fresh run's provenance never counts as a difference", () => {
    const provenance = {
      script: "bench/memory-session.ts",
      args: ["--tasks", "12"],
      kind: "quick" as const,
      commit: "0123456789ab",
      date: "2026-12-02",
    };
    const readme = replaceReadmeSection("# B\n", "memory-session", `${provenanceLines(provenance)}\n\n| a | b |`);
    const body = readmeSections(readme).get("memory-session") ?? "";
    expect(readProvenance(body)).toEqual(provenance);
    expect(body).toContain(
      "_Written by `node --import tsx bench/memory-session.ts --tasks 12` at commit `0123456789ab` on 2026-12-02;",
    );
    const later = provenanceLines({ ...provenance, commit: "fedcba987654", date: "2027-01-01" });
    expect(withoutProvenance(`${later}\n\n| a | b |`)).toBe(withoutProvenance(body));
    expect(withoutProvenance(`${later}\n\n| a | c |`)).not.toBe(withoutProvenance(body));
  });
});

describe("docs quote no bench figure", () => {
  /** A bench ratio as the scripts print it (three decimals and ×); prices like 1.25× are not results. */
  const BENCH_RATIO = /\b\d+\.\d{3}\s?×/g;

  it("README.md and docs/*.md point at bench/README.md sections instead of copying their ratios", () => {
    const files = ["README.md", ...readdirSync(join(ROOT, "docs")).map((name) => join("docs", name))].filter((name) =>
      name.endsWith(".md"),
    );
    const copied = files.flatMap((name) =>
      [...readFileSync(join(ROOT, name), "utf8").matchAll(BENCH_RATIO)].map((match) => `${name}: ${match[0]}`),
    );
    expect(copied).toEqual([]);
  });
});

/**
 * The contract property at scale: assemble requests from generated messy timelines and count the validator's
 * violations (must be 0). Prints the count, a few examples, and the rate. Never fails on time.
 * Run: node --expose-gc --import tsx bench/request-contract.ts [cases=1000000] [seed=1]
 */

import { validateRequest } from "@threadline/emulator";
import fc from "fast-check";
import { assembleRequest, EmptyConversationError, emptyLatches } from "../src/request/index.js";
import {
  buildTimeline,
  editsFrom,
  SIGNATURE_SECRET,
  settingsChoice,
  settingsFrom,
  timelineOps,
} from "../support/messy-timeline.js";
import { reportResult } from "./lib/result.js";

const total = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 1);
const BATCH = 10_000;

let checked = 0;
let skipped = 0;
let violating = 0;
const examples: string[] = [];
const started = performance.now();
for (let batch = 0; checked + skipped < total; batch++) {
  const size = Math.min(BATCH, total - checked - skipped);
  const cases = fc.sample(fc.tuple(timelineOps, settingsChoice), { numRuns: size, seed: seed + batch });
  for (const [ops, choice] of cases) {
    const builder = buildTimeline(ops);
    const { pins, newCacheEdits } = editsFrom(choice, builder.toolUseIds());
    let json: string;
    let betas: string[];
    try {
      const { request } = assembleRequest({
        messages: builder.entries,
        settings: settingsFrom(choice),
        latches: emptyLatches(),
        pins,
        newCacheEdits,
      });
      json = request.json;
      betas = request.betas;
    } catch (error) {
      if (!(error instanceof EmptyConversationError)) throw error;
      skipped++;
      continue;
    }
    checked++;
    const violations = validateRequest(JSON.parse(json), {
      signatureSecret: SIGNATURE_SECRET,
      cacheEditing: choice.cacheEditing,
      betas,
    });
    if (violations.length > 0) {
      violating++;
      if (examples.length < 5) examples.push(`${violations[0]!.message}\n    ops: ${JSON.stringify(ops)}`);
    }
  }
  if (batch % 10 === 9) console.log(`  … ${checked + skipped} cases, ${violating} violating`);
}
const seconds = (performance.now() - started) / 1000;
console.log(`request-contract: ${checked} requests validated (${skipped} empty conversations skipped)`);
console.log(`  violations found: ${violating}`);
for (const example of examples) console.log(`  e.g. ${example}`);
console.log(`  ${(checked / seconds).toFixed(0)} cases/s, ${seconds.toFixed(1)} s`);
reportResult({
  bench: "request-contract",
  metric: `violations in ${checked} assembled requests`,
  value: violating,
  unit: "count",
  target: "0",
});

// Run with: node test/stats.test.js (exit code 1 when a test fails)
import { summarize } from "../src/format.js";
import { mean, median } from "../src/stats.js";

function check(actual, expected) {
  if (actual !== expected) throw new Error(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const tests = {
  "mean of three numbers": () => check(mean([1, 2, 6]), 3),
  "median of an odd-length list": () => check(median([3, 1, 2]), 2),
  "median of an even-length list": () => check(median([4, 1, 3, 2]), 2.5),
  "median sorts numerically": () => check(median([10, 9, 2]), 9),
  "summary line": () => check(summarize([10, 9, 2]), "3 values, mean 7, median 9"),
};

let failed = 0;
for (const [name, test] of Object.entries(tests)) {
  try {
    test();
    console.log(`ok - ${name}`);
  } catch (error) {
    failed++;
    console.log(`not ok - ${name}: ${error.message}`);
  }
}
console.log(failed === 0 ? `all ${Object.keys(tests).length} tests passed` : `${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;

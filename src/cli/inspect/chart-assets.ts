/**
 * The chart library the inspect page inlines (uPlot, MIT, a devDependency). From source it is read from
 * node_modules; `npm run build` (scripts/bundle.mjs) replaces this module in the bundle with the file
 * contents, so an installed threadline carries the chart and the page needs no network at view time.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** uPlot's minified script and stylesheet, as text. */
export interface ChartAssets {
  script: string;
  stylesheet: string;
  /** Licence line kept in the page next to the inlined library. */
  notice: string;
}

/** The assets, read once. */
export function chartAssets(): ChartAssets {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve("uplot"));
  return {
    script: readFileSync(join(root, "uPlot.iife.min.js"), "utf8"),
    stylesheet: readFileSync(join(root, "uPlot.min.css"), "utf8"),
    notice: "uPlot 1.6.32 (MIT) © Leon Sorokin",
  };
}

// Bundles the compiled CLI (dist/cli/main.js) and its dependencies into dist/bundle/ for a fast cold start:
// one parse of a few large files costs far less than resolving and loading hundreds of small modules.
// Lazily imported modes (demo, emulator, inspect, interactive) stay in their own chunks.
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { build } from "esbuild";

// Chunk names carry content hashes: without a clean directory every build would leave the old ones behind.
rmSync("dist/bundle", { recursive: true, force: true });

// The inspect page's chart library (uPlot, a devDependency) is inlined here, at build time: an installed
// threadline has no node_modules/uplot, and the page must load nothing from the network.
const uplotRoot = dirname(createRequire(import.meta.url).resolve("uplot"));
const chartAssets = {
  script: readFileSync(join(uplotRoot, "uPlot.iife.min.js"), "utf8"),
  stylesheet: readFileSync(join(uplotRoot, "uPlot.min.css"), "utf8"),
  notice: "uPlot 1.6.32 (MIT) © Leon Sorokin",
};
const inlineChartAssets = {
  name: "inline-chart-assets",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]dist[\\/]cli[\\/]inspect[\\/]chart-assets\.js$/ }, () => ({
      contents: `export function chartAssets() { return ${JSON.stringify(chartAssets)}; }`,
      loader: "js",
    }));
  },
};

await build({
  entryPoints: { main: "dist/cli/main.js" },
  outdir: "dist/bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  logLevel: "error",
  plugins: [inlineChartAssets],
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import{createRequire as __threadlineRequire}from'node:module';const require=__threadlineRequire(import.meta.url);",
  },
});

// Bundles the compiled CLI (dist/cli/main.js) and its dependencies into dist/bundle/ for a fast cold start:
// one parse of a few large files costs far less than resolving and loading hundreds of small modules.
// Lazily imported modes (demo, emulator, inspect, interactive) stay in their own chunks.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
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

// The emulator is a workspace package whose entry is TypeScript (packages/emulator/package.json): compile it to
// dist/emulator/index.js and point tsc's output at that file, so the library entry (dist/index.js) runs from an
// install. Its own dependencies (the tokenizer with its WebAssembly file, zod, …) stay external.
await build({
  entryPoints: ["packages/emulator/src/index.ts"],
  outfile: "dist/emulator/index.js",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "error",
});
const EMULATOR_SPECIFIER = /(["'])@threadline\/emulator\1/g;
for (const entry of readdirSync("dist", { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".js")) continue;
  const path = join(entry.parentPath, entry.name);
  if (path.startsWith(join("dist", "bundle")) || path.startsWith(join("dist", "emulator"))) continue;
  const text = readFileSync(path, "utf8");
  if (!text.includes("@threadline/emulator")) continue;
  let target = relative(dirname(path), join("dist", "emulator", "index.js"))
    .split("\\")
    .join("/");
  if (!target.startsWith(".")) target = `./${target}`;
  writeFileSync(
    path,
    text.replace(EMULATOR_SPECIFIER, (_match, quote) => `${quote}${target}${quote}`),
  );
}

await build({
  // v8-flags: loaded by bin/threadline before main (src/cli/v8-flags.ts says why), so it is an entry of its own.
  entryPoints: { main: "dist/cli/main.js", "v8-flags": "dist/cli/v8-flags.js" },
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

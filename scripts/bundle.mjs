// Bundles the compiled CLI (dist/cli/main.js) and its dependencies into dist/bundle/ for a fast cold start:
// one parse of a few large files costs far less than resolving and loading hundreds of small modules.
// Lazily imported modes (demo, emulator, inspect, interactive) stay in their own chunks.
import { rmSync } from "node:fs";
import { build } from "esbuild";

// Chunk names carry content hashes: without a clean directory every build would leave the old ones behind.
rmSync("dist/bundle", { recursive: true, force: true });

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
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import{createRequire as __threadlineRequire}from'node:module';const require=__threadlineRequire(import.meta.url);",
  },
});

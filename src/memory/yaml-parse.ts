/**
 * The `yaml` parser, in a module of its own so front-matter.ts can import it lazily: a dynamic import of the
 * CommonJS `yaml` package itself gives the bundle a namespace without its named exports; a static import
 * here, loaded by a dynamic import of this file, keeps them (docs/PERFORMANCE.md).
 */
export { parse } from "yaml";

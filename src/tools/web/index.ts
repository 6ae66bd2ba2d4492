/** Web: WebFetch and WebSearch. The names used outside src/tools/. */
export { missingToolMessage } from "./web-search-tool.js";

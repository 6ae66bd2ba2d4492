/** vitest globalSetup: compile dist/ once before the end-to-end CLI tests spawn `bin/threadline`. */
import { buildOnce } from "./build-once.js";

export default function setup(): void {
  buildOnce();
}

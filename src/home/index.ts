export { DEFAULT_THREADLINE_DIR, THREADLINE_HOME_ENV, threadlineHome, userHome } from "./threadline-home.js";

export * from "./load-plugin.js";
export * from "./marketplaces.js";
export * from "./plugin-set.js";
export * from "./plugin-settings.js";
export * from "./plugin-types.js";

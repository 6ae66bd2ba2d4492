export {
  CLAUDE_SETTINGS_DIR,
  type LoadSettingsOptions,
  loadSettings,
  mergeSettings,
  SettingsError,
  type SettingsLocation,
  settingsLocations,
  THREADLINE_SETTINGS_DIR,
} from "./load-settings.js";
export {
  IGNORED_CLAUDE_CODE_KEYS,
  MANAGED_ONLY_KEYS,
  PERMISSION_KEYS,
  parseSettingsFile,
  SUPPORTED_KEYS,
} from "./parse-settings-file.js";
export * from "./settings-types.js";

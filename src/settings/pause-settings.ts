/**
 * The pause policy's settings keys (docs/PROMPT-CACHE.md, "Pauses"): `cacheTtl` ("auto", "5m", "1h"),
 * `keepWarm` ("auto", "on", "off") and `keepWarmLimitMinutes` (a positive number). Each is single-valued: the
 * highest file that sets it wins.
 */

export interface PauseSettingValues {
  cacheTtl?: "auto" | "5m" | "1h";
  keepWarm?: "auto" | "on" | "off";
  keepWarmLimitMinutes?: number;
}

export const PAUSE_SETTING_KEYS = ["cacheTtl", "keepWarm", "keepWarmLimitMinutes"] as const;

const TTLS = ["auto", "5m", "1h"] as const;
const KEEP_WARM = ["auto", "on", "off"] as const;

/** Reads one pause key into `into`; a bad value is one problem line and is ignored. */
export function readPauseSetting(
  key: (typeof PAUSE_SETTING_KEYS)[number],
  value: unknown,
  into: PauseSettingValues,
  add: (key: string, message: string) => void,
): void {
  switch (key) {
    case "cacheTtl": {
      const ttl = TTLS.find((candidate) => candidate === value);
      if (ttl !== undefined) into.cacheTtl = ttl;
      else add(key, `must be one of ${TTLS.join(", ")}, got ${JSON.stringify(value)}; ignored`);
      return;
    }
    case "keepWarm": {
      const mode = KEEP_WARM.find((candidate) => candidate === value);
      if (mode !== undefined) into.keepWarm = mode;
      else add(key, `must be one of ${KEEP_WARM.join(", ")}, got ${JSON.stringify(value)}; ignored`);
      return;
    }
    case "keepWarmLimitMinutes":
      if (typeof value === "number" && Number.isFinite(value) && value > 0) into.keepWarmLimitMinutes = value;
      else add(key, `must be a positive number of minutes, got ${JSON.stringify(value)}; ignored`);
      return;
  }
}

export function isPauseSettingKey(key: string): key is (typeof PAUSE_SETTING_KEYS)[number] {
  return (PAUSE_SETTING_KEYS as readonly string[]).includes(key);
}

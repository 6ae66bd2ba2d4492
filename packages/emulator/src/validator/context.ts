/**
 * State gathered during one validation walk, so each rule looks at each value once
 * (no re-serialisation per rule: the validator runs over millions of generated requests).
 */
import type { ValidateOptions, Violation } from "./violation.js";

/** A `cache_control` marker in processing order (tools, system, messages). */
export interface CacheMarker {
  path: string;
  ttl: "5m" | "1h";
}

export interface ImageSeen {
  path: string;
  width: number;
  height: number;
}

export interface ValidationContext {
  readonly out: Violation[];
  readonly options: ValidateOptions;
  readonly cacheEditing: boolean;
  readonly cacheMarkers: CacheMarker[];
  /** `cache_reference` values carried by tool_result blocks. */
  readonly toolResultReferences: Set<string>;
  /** Every `cache_edits` delete, checked against the references once the walk is done. */
  readonly cacheEditDeletes: Array<{ path: string; reference: string }>;
  readonly images: ImageSeen[];
  /** Images and documents counted toward the per-request limit. */
  mediaCount: number;
  /** Checks that must run after the messages walk (top-level cache_control marks the last block). */
  readonly deferredMarkers: Array<() => void>;
}

export function createContext(options: ValidateOptions, out: Violation[]): ValidationContext {
  return {
    out,
    options,
    cacheEditing: options.cacheEditing ?? false,
    cacheMarkers: [],
    toolResultReferences: new Set(),
    cacheEditDeletes: [],
    images: [],
    mediaCount: 0,
    deferredMarkers: [],
  };
}

/**
 * cache_control rules: the marker's own shape, at most four markers, and no 1h marker after a 5m one
 * in processing order (tools, system, messages).
 */
import type { ValidationContext } from "./context.js";
import { checkExtraKeys, invalid, isRecord } from "./violation.js";

/** The API accepts at most this many blocks carrying cache_control. */
export const MAX_CACHE_CONTROL_BLOCKS = 4;

const CACHE_CONTROL_KEYS: ReadonlySet<string> = new Set(["type", "ttl"]);

/** Checks one block's `cache_control` (if any) and records it as a marker. */
export function checkCacheControl(block: Record<string, unknown>, path: string, context: ValidationContext): void {
  const marker = block.cache_control;
  if (marker === undefined || marker === null) return;
  const markerPath = path === "" ? "cache_control" : `${path}.cache_control`;
  if (!isRecord(marker)) {
    context.out.push(invalid(markerPath, "Input should be a valid dictionary"));
    return;
  }
  checkExtraKeys(marker, CACHE_CONTROL_KEYS, markerPath, context.out);
  if (marker.type !== "ephemeral") {
    context.out.push(invalid(`${markerPath}.type`, "Input should be 'ephemeral'"));
  }
  const ttl = marker.ttl ?? "5m";
  if (ttl !== "5m" && ttl !== "1h") {
    context.out.push(invalid(`${markerPath}.ttl`, "Input should be '5m' or '1h'"));
    return;
  }
  if (block.type === "text" && typeof block.text === "string" && block.text.length === 0) {
    context.out.push(invalid(markerPath, "cache_control cannot be set for empty text blocks"));
  }
  context.cacheMarkers.push({ path, ttl });
}

/** Count and TTL-order checks, run once all markers are collected. */
export function checkCacheMarkers(context: ValidationContext): void {
  const markers = context.cacheMarkers;
  if (markers.length > MAX_CACHE_CONTROL_BLOCKS) {
    context.out.push(
      invalid(
        "",
        `A maximum of ${MAX_CACHE_CONTROL_BLOCKS} blocks with cache_control may be provided. Found ${markers.length}.`,
      ),
    );
  }
  let seenFiveMinutes = false;
  for (const marker of markers) {
    if (marker.ttl === "5m") seenFiveMinutes = true;
    else if (seenFiveMinutes) {
      context.out.push(
        invalid(
          marker.path === "" ? "cache_control" : `${marker.path}.cache_control`,
          "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. " +
            "Note that blocks are processed in the following order: `tools`, `system`, `messages`.",
        ),
      );
      return;
    }
  }
}

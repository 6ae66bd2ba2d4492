import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_RETRIES,
  isRetryableStatus,
  retryAfterFromHeaders,
  retryDelayMs,
} from "../../src/provider/index.js";

describe("retryDelayMs", () => {
  it("doubles from 500 ms and caps at 32 s without jitter", () => {
    const delays = Array.from({ length: DEFAULT_MAX_RETRIES }, (_, index) => retryDelayMs(index + 1, () => 0));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 32000, 32000, 32000, 32000]);
  });

  it("adds up to 25 % jitter", () => {
    expect(retryDelayMs(1, () => 0.999999)).toBe(625);
    expect(retryDelayMs(10, () => 0.999999)).toBe(40_000);
    expect(retryDelayMs(3, () => 0.5)).toBe(2250);
  });

  it("uses the server's retry-after when given, even zero", () => {
    expect(retryDelayMs(5, () => 0.9, 1500)).toBe(1500);
    expect(retryDelayMs(5, () => 0.9, 0)).toBe(0);
  });

  it("ignores a broken random source", () => {
    expect(retryDelayMs(1, () => Number.NaN)).toBe(500);
    expect(retryDelayMs(1, () => 7)).toBe(625);
  });
});

describe("retry headers and statuses", () => {
  it("reads retry-after as seconds or as an HTTP date", () => {
    const now = new Date("2025-01-01T00:00:00Z");
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers(), now)).toBeUndefined();
  });

  it("retries 408, 409, 429 and every 5xx, nothing else", () => {
    expect([408, 409, 429, 500, 503, 529].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422].some(isRetryableStatus)).toBe(false);
  });
});

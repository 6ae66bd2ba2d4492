/**
 * WebFetch's HTTP side: one GET with a timeout and a byte cap, redirects followed only within the same host
 * (a redirect elsewhere is reported to the model, which decides whether to fetch it: docs/TOOLS.md), HTML turned
 * into markdown with turndown, and a short-lived cache of converted pages by URL.
 */
import type TurndownService from "turndown";

/** Most bytes read from one response; a larger body is refused, not cut. */
export const DEFAULT_WEB_FETCH_MAX_BYTES = 10 * 1024 * 1024;
/** How long one fetch (all same-host redirects included) may take. */
export const DEFAULT_WEB_FETCH_TIMEOUT_MS = 30_000;
/** How long a fetched page is reused for the same URL (Claude Code's figure: 15 minutes). */
export const DEFAULT_WEB_FETCH_CACHE_MS = 15 * 60 * 1000;
/** Pages kept in the cache at most (oldest dropped first). */
export const WEB_FETCH_CACHE_ENTRIES = 64;
/** Same-host redirects followed before giving up. */
const MAX_REDIRECTS = 10;

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** What one fetch produced: a page as text, a redirect to another host, or a one-line refusal. */
export type FetchOutcome =
  | { kind: "page"; url: string; status: number; statusText: string; contentType: string; bytes: number; text: string }
  | { kind: "redirect"; from: string; to: string; status: number }
  | { kind: "refused"; message: string };

/** Whether `to` is the same site as `from`: same host, or one is the other with `www.` in front. */
function sameHost(from: URL, to: URL): boolean {
  if (from.protocol !== to.protocol || from.port !== to.port) return false;
  const strip = (host: string) => (host.startsWith("www.") ? host.slice(4) : host);
  return strip(from.hostname) === strip(to.hostname);
}

let turndown: Promise<TurndownService> | undefined;

/**
 * The converter, loaded on the first HTML page: turndown and its DOM (domino, ~250 KB) are not parsed by a
 * session that never fetches a page (docs/PERFORMANCE.md, "Start-up").
 */
function converter(): Promise<TurndownService> {
  turndown ??= import("turndown").then(({ default: Turndown }) => {
    const service = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
    // Scripts and styles are code the reader never sees, and the <title> repeats the heading; turndown would keep their text.
    service.remove(["script", "style", "noscript", "template", "title"]);
    return service;
  });
  return turndown;
}

/** HTML as markdown (turndown: docs/TOOLS.md). */
export async function htmlToMarkdown(html: string): Promise<string> {
  return (await converter()).turndown(html).trim();
}

function isTextType(contentType: string): boolean {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return (
    type === "" ||
    type.startsWith("text/") ||
    type.endsWith("+json") ||
    type.endsWith("+xml") ||
    ["application/json", "application/xml", "application/javascript", "application/xhtml+xml"].includes(type)
  );
}

/** Reads the body up to `maxBytes`; undefined when it is larger (the rest is not downloaded). */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MB`;
}

/** Fetches `address`, following redirects only within its host; never throws for network trouble. */
export async function fetchPage(address: string, limits: FetchLimits, signal: AbortSignal): Promise<FetchOutcome> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { kind: "refused", message: `Invalid URL: ${address}. Give a full http:// or https:// URL.` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { kind: "refused", message: `WebFetch fetches http:// and https:// URLs only, not ${url.protocol}` };
  if (url.username !== "" || url.password !== "")
    return { kind: "refused", message: "WebFetch does not send credentials in URLs; remove the user:password@ part." };
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await fetch(url, {
        redirect: "manual",
        signal: both,
        headers: { accept: "text/html, text/markdown, text/plain, */*;q=0.5", "user-agent": "threadline-webfetch" },
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (!sameHost(url, next)) return { kind: "redirect", from: url.href, to: next.href, status: response.status };
        url = next;
        continue;
      }
      const contentType = response.headers.get("content-type") ?? "";
      if (!isTextType(contentType)) {
        await response.body?.cancel();
        return {
          kind: "refused",
          message: `${url.href} returned ${contentType} content, not text; WebFetch reads web pages and text only (use Bash with curl to download files).`,
        };
      }
      const body = await readCapped(response, limits.maxBytes);
      if (body === undefined)
        return {
          kind: "refused",
          message: `${url.href} is larger than the ${megabytes(limits.maxBytes)} WebFetch reads; nothing was kept (use Bash with curl to download it).`,
        };
      const raw = new TextDecoder().decode(body);
      const html = /html/i.test(contentType) || (contentType === "" && /^\s*<(!doctype html|html)/i.test(raw));
      return {
        kind: "page",
        url: url.href,
        status: response.status,
        statusText: response.statusText,
        contentType,
        bytes: body.byteLength,
        text: html ? await htmlToMarkdown(raw) : raw,
      };
    }
    return {
      kind: "refused",
      message: `${address} redirected more than ${MAX_REDIRECTS} times; not followed further.`,
    };
  } catch (error) {
    if (timeout.aborted)
      return {
        kind: "refused",
        message: `${url.href} did not answer within ${limits.timeoutMs / 1000} s; nothing was kept.`,
      };
    if (signal.aborted) return { kind: "refused", message: "The fetch was interrupted." };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      kind: "refused",
      message: `Could not fetch ${url.href}: ${cause?.code ?? cause?.message ?? String(error)}.`,
    };
  }
}

/** Converted pages by URL for `ttlMs`; only pages are kept (a refusal or redirect is asked again). */
export class PageCache {
  readonly #pages = new Map<string, { at: number; outcome: FetchOutcome & { kind: "page" } }>();

  constructor(
    readonly ttlMs: number,
    readonly now: () => number,
  ) {}

  get(url: string): (FetchOutcome & { kind: "page" }) | undefined {
    const hit = this.#pages.get(url);
    if (hit === undefined) return undefined;
    if (this.now() - hit.at >= this.ttlMs) {
      this.#pages.delete(url);
      return undefined;
    }
    return hit.outcome;
  }

  set(url: string, outcome: FetchOutcome & { kind: "page" }): void {
    this.#pages.delete(url);
    this.#pages.set(url, { at: this.now(), outcome });
    while (this.#pages.size > WEB_FETCH_CACHE_ENTRIES) {
      const oldest = this.#pages.keys().next().value;
      if (oldest === undefined) break;
      this.#pages.delete(oldest);
    }
  }
}

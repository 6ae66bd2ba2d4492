/**
 * The inspect page in a real browser: the built CLI writes it for a fixture transcript, headless Chromium
 * (Debian's `chromium`) opens it from disk with every request intercepted. Skipped, with a notice, where no
 * Chromium is installed (CI installs it: .ci/run).
 */
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";
import { ROOT } from "./build-once.js";
import { runCli } from "./cli-process.js";

const FIXTURE = join(ROOT, "test", "fixtures", "inspect", "claude-code-session.jsonl");
const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (path): path is string => path !== undefined && path !== "" && existsSync(path),
);
if (CHROMIUM === undefined)
  console.warn("inspect page test skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)");

/**
 * Browser-side (a string: the project's types are Node's): per canvas, the variance of its pixels' luminance,
 * transparent pixels counted as the white page behind them. A blank or one-colour canvas has none.
 */
const CANVAS_VARIANCE = `Array.from(document.querySelectorAll("canvas")).map((canvas) => {
  const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let sum = 0, squares = 0;
  const count = pixels.length / 4;
  for (let index = 0; index < pixels.length; index += 4) {
    const alpha = pixels[index + 3] / 255;
    const luminance = (0.2126 * pixels[index] + 0.7152 * pixels[index + 1] + 0.0722 * pixels[index + 2]) * alpha + 255 * (1 - alpha);
    sum += luminance;
    squares += luminance * luminance;
  }
  const mean = sum / count;
  return { width: canvas.width, variance: squares / count - mean * mean };
})`;

describe.skipIf(CHROMIUM === undefined)("threadline inspect --html in headless Chromium", () => {
  let directory: string;
  let browser: Browser;

  beforeAll(async () => {
    directory = await makeTempDir("inspect-page");
    browser = await puppeteer.launch({
      executablePath: CHROMIUM!,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("draws both charts and loads nothing from the network", async () => {
    const pagePath = join(directory, "report.html");
    const result = await runCli(["inspect", "--html", pagePath, FIXTURE], { env: process.env, cwd: directory });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^wrote .*report\.html: 4 requests, \$0\.1733\n$/);
    const html = await readFile(pagePath, "utf8");
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="(https?:)?\/\//);

    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    const outside: string[] = [];
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      const url = request.url();
      if (url.startsWith("data:") || url.startsWith("file:")) void request.continue();
      else {
        outside.push(url);
        void request.abort();
      }
    });
    await page.goto(pathToFileURL(pagePath).href, { waitUntil: "load" });
    await page.waitForSelector('body[data-rendered="true"]', { timeout: 10_000 });
    const canvases = (await page.evaluate(CANVAS_VARIANCE)) as Array<{ width: number; variance: number }>;
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    expect(canvases).toHaveLength(2);
    for (const canvas of canvases) {
      expect(canvas.width).toBeGreaterThan(300);
      expect(canvas.variance).toBeGreaterThan(100);
    }
    const text = (await page.evaluate("document.body.innerText")) as string;
    expect(text).toContain("By prompt");
    expect(text).toContain("Fix the parser bug in src/parse.ts");
    expect(text).toContain("agent-a");
  });
});

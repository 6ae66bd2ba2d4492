/**
 * Images and PDFs from the person through the built CLI to an emulator over real HTTP (docs/REWIND.md,
 * "Images and PDFs from the person"): `@image.png` and `@report.pdf` become well-formed blocks, piped image
 * bytes too, and an image over the API's 8000 px limit is refused with one line before any request.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";
import { BIN, buildOnce } from "./build-once.js";
import { cliEnv, runCli } from "./cli-process.js";

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real RGB PNG of `width`×`height` (grey pixels). */
function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 128)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]);
}

/** A PDF of `pages` empty pages with a correct cross-reference table. */
function pdf(pages: number): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(" ")}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"),
  ];
  let text = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(text, "latin1"));
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text, "latin1");
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, "0")} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, "latin1");
}

let emulator: Emulator | undefined;
beforeAll(() => buildOnce());
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

type Block = { type: string; source?: { type: string; media_type: string; data: string }; text?: string };
function lastUserContent(): Block[] {
  const body = emulator!.requests.at(-1)!.body as { messages: Array<{ content: Block[] | string }> };
  return body.messages.at(-1)!.content as Block[];
}

describe("images and PDFs from the person", () => {
  it("@image.png and @report.pdf (20 pages) reach the server as well-formed blocks, then the words", async () => {
    emulator = await startEmulator({ scenario: ["Seen both."] });
    const cwd = await makeTempDir("media-cwd");
    const home = await makeTempDir("media-home");
    const image = png(4, 3);
    const report = pdf(20);
    await writeFile(join(cwd, "image.png"), image);
    await writeFile(join(cwd, "report.pdf"), report);
    const prompt = "compare @image.png with @report.pdf";
    const result = await runCli(["-p", prompt], { env: cliEnv(emulator.url, home), cwd });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const content = lastUserContent();
    expect(content.map((block) => block.type)).toEqual(["image", "document", "text"]);
    expect(content[0]!.source).toEqual({ type: "base64", media_type: "image/png", data: image.toString("base64") });
    expect(content[1]!.source).toEqual({
      type: "base64",
      media_type: "application/pdf",
      data: report.toString("base64"),
    });
    expect(content[2]!.text).toBe(prompt);
  }, 120_000);

  it("image bytes piped to -p become an image block before the prompt's words", async () => {
    emulator = await startEmulator({ scenario: ["A grey square."] });
    const cwd = await makeTempDir("media-cwd");
    const home = await makeTempDir("media-home");
    const image = png(2, 2);
    await writeFile(join(cwd, "square.png"), image);
    // A shell pipe (a FIFO), as `cat square.png | threadline -p …` gives it.
    const command = `cat square.png | "${process.execPath}" "${BIN}" -p "what is this?"`;
    const child = spawn("sh", ["-c", command], {
      cwd,
      env: cliEnv(emulator.url, home),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const content = lastUserContent();
    expect(content[0]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: image.toString("base64") },
    });
    expect(content[1]).toMatchObject({ type: "text", text: "what is this?" }); // carries the cache breakpoint
  }, 120_000);

  it("an image over 8000 px is refused with one line, and no request is sent", async () => {
    emulator = await startEmulator({ scenario: ["never"] });
    const cwd = await makeTempDir("media-cwd");
    const home = await makeTempDir("media-home");
    await writeFile(join(cwd, "wide.png"), png(8001, 1));
    const result = await runCli(["-p", "look at @wide.png"], { env: cliEnv(emulator.url, home), cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      "threadline: wide.png is 8001×1 px, over the API's 8000 px per side; not sent (shrink it first)",
    ]);
    expect(emulator.requests).toHaveLength(0);
  }, 120_000);
});

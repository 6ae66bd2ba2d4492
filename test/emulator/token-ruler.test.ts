/**
 * The emulator's own ruler (packages/emulator/src/ruler.ts): the Claude tokenizer, never the client's
 * characters / 4 estimate, scaled by `tokenRatio`. Every oracle here is a literal: the Claude tokenizer's count
 * of a known string, or an image's pixel area / 750. Each string is chosen so characters / 4 says otherwise.
 */
import { deflateSync } from "node:zlib";
import { type Emulator, runEmulatorCommand, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { MODEL, post } from "./helpers.js";

/** 10 tokens under the Claude tokenizer (characters / 4: 11). */
const FOX = "The quick brown fox jumps over the lazy dog.";
/** 12 tokens under the Claude tokenizer (characters / 4: 4). */
const CHINESE = "这是一个测试，我们用中文写笔记。";
/** 1,000 tokens: each " x" one token (characters / 4: 500). */
const THOUSAND = "x ".repeat(1000).trimEnd();

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function countTokens(running: Emulator, content: unknown): Promise<unknown> {
  const response = await post(running, "/v1/messages/count_tokens", {
    model: MODEL,
    messages: [{ role: "user", content }],
  });
  return response.json;
}

/** A real PNG of `width` × `height` (one grey row repeated), so the server reads its size from the header. */
function png(width: number, height: number): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer): number => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 128)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]).toString("base64");
}

describe("the emulator counts with the Claude tokenizer", () => {
  it("count_tokens gives the tokenizer's count of known strings, not characters / 4", async () => {
    emulator = await startEmulator();
    expect(await countTokens(emulator, FOX)).toEqual({ input_tokens: 10 });
    expect(await countTokens(emulator, CHINESE)).toEqual({ input_tokens: 12 });
    expect(await countTokens(emulator, THOUSAND)).toEqual({ input_tokens: 1000 });
  });

  // BPE merges inside one word cost time quadratic in its length (100,000 "x" took 38 s), so the emulator counts
  // a run over 1,000 characters without whitespace in 1,000-character pieces, which keeps counting linear. The
  // oracle is the tokenizer itself: the sum of its counts of those pieces, exactly, and within 1 % of its count
  // of the run encoded whole (a timed assertion would be a benchmark, and flaky: the whole-word path took 51 s on
  // a loaded machine and under 20 s on a quiet one). Encoded whole, this run counts one token fewer.
  it("counts a long run without whitespace (minified code, base64) in 1,000-character pieces, within 1 % of whole", async () => {
    emulator = await startEmulator();
    const { countTokens: tokenizer } = await import("@anthropic-ai/tokenizer");
    // Letters only: the tokenizer's pre-split keeps a run of letters as one word (digits and "+" would split it).
    const run = "qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM".repeat(100).slice(0, 5_000);
    let pieces = 0;
    for (let cut = 0; cut < run.length; cut += 1_000) pieces += tokenizer(run.slice(cut, cut + 1_000));
    const whole = tokenizer(run);
    expect(pieces).not.toBe(whole);
    const counted = (await countTokens(emulator, run)) as { input_tokens: number };
    expect(counted).toEqual({ input_tokens: pieces });
    expect(Math.abs(pieces - whole)).toBeLessThanOrEqual(whole * 0.01);
  });

  it("bills input and output tokens with the same count", async () => {
    emulator = await startEmulator({ scenario: [FOX], sideRequestsWithoutTools: false });
    const response = await post(emulator, "/v1/messages", {
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: "user", content: CHINESE }],
    });
    expect(response.status).toBe(200);
    expect(response.json.usage).toMatchObject({ input_tokens: 12, output_tokens: 10 });
  });

  it("answers 'prompt is too long' by its own count: 1,000 tokens into a 999 window", async () => {
    emulator = await startEmulator({ contextWindow: 999 });
    const response = await post(emulator, "/v1/messages", {
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: "user", content: THOUSAND }],
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.json)).toContain("prompt is too long: 1000 tokens > 999 maximum");
  });

  it("counts an image from its pixel size (width × height / 750), capped where the API resizes", async () => {
    emulator = await startEmulator();
    const image = (data: string) => [{ type: "image", source: { type: "base64", media_type: "image/png", data } }];
    // 300 × 150 = 45,000 pixels = 60 tokens; 2,000 × 2,000 is past the cap: 1,600.
    expect(await countTokens(emulator, image(png(300, 150)))).toEqual({ input_tokens: 60 });
    expect(await countTokens(emulator, image(png(2000, 2000)))).toEqual({ input_tokens: 1600 });
  });
});

describe("tokenRatio scales every count (a server whose tokenizer counts more)", () => {
  it("×4: count_tokens, billing and the window check all read four times the tokenizer's count", async () => {
    emulator = await startEmulator({
      tokenRatio: 4,
      contextWindow: 3_999,
      scenario: [FOX],
      sideRequestsWithoutTools: false,
    });
    expect(await countTokens(emulator, FOX)).toEqual({ input_tokens: 40 });
    const billed = await post(emulator, "/v1/messages", {
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: "user", content: CHINESE }],
    });
    expect(billed.json.usage).toMatchObject({ input_tokens: 48, output_tokens: 40 });
    const over = await post(emulator, "/v1/messages", {
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: "user", content: THOUSAND }],
    });
    expect(over.status).toBe(400);
    expect(JSON.stringify(over.json)).toContain("prompt is too long: 4000 tokens > 3999 maximum");
  });

  it("--token-ratio is read by the CLI and a bad value is one line, exit 2", async () => {
    const errors: string[] = [];
    const code = await runEmulatorCommand(["--token-ratio", "0"], { writeError: (line) => errors.push(line) });
    expect(code).toBe(2);
    expect(errors).toEqual(["threadline emulator: --token-ratio must be a positive number, got 0"]);
    const lines: string[] = [];
    let stop: () => void = () => {};
    const until = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const running = runEmulatorCommand(["--token-ratio", "2.5"], {
      write: (line) => {
        lines.push(line);
        stop();
      },
      until,
    });
    expect(await running).toBe(0);
    expect(lines[0]).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ .*token counts ×2\.5/);
  });
});

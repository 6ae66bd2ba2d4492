/**
 * Benchmark: `threadline inspect` on a generated ~100 MB Claude Code-style transcript (one record per content
 * block, usage on each, sidechains, compaction boundaries). The inspect run happens in a child process so its
 * peak RSS is its own. Prints numbers; never passes or fails on time.
 *
 * Run: node --import tsx bench/inspect.ts [target MB, default 100]
 */
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runInspect } from "../src/cli/inspect/inspect.js";
import { makeTempDir } from "../support/temp-dir.js";

/** Size of the generated transcript unless the first argument says otherwise. */
export const DEFAULT_TARGET_MEGABYTES = 100;

/** Writes a Claude Code-style transcript of about `targetBytes` to `path`. */
export async function generateTranscript(
  path: string,
  targetBytes: number,
): Promise<{ lines: number; requests: number }> {
  const out = createWriteStream(path);
  let bytes = 0;
  let lines = 0;
  let requests = 0;
  let parent: string | null = null;
  let cacheRead = 0;
  let time = Date.parse("2025-10-01T00:00:00.000Z");
  const write = async (record: Record<string, unknown>) => {
    const line = `${JSON.stringify(record)}\n`;
    bytes += Buffer.byteLength(line);
    lines++;
    if (!out.write(line)) await once(out, "drain");
  };
  const base = (uuid: string, sidechain: boolean) => {
    time += 3_000;
    return {
      parentUuid: parent,
      isSidechain: sidechain,
      ...(sidechain ? { agentId: "agent-bench" } : {}),
      sessionId: "bench-session",
      cwd: "/bench",
      version: "2.0.14",
      uuid,
      timestamp: new Date(time).toISOString(),
    };
  };
  const filler = "The quick brown fox jumps over the lazy dog. ".repeat(40);
  while (bytes < targetBytes) {
    requests++;
    const sidechain = requests % 7 === 0;
    const userUuid = `u-${requests}`;
    await write({
      ...base(userUuid, sidechain),
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: `toolu_${requests - 1}`, content: filler }],
      },
    });
    parent = userUuid;
    // A drop now and then so break detection has work to do.
    cacheRead = requests % 50 === 0 ? 0 : cacheRead + 1_500;
    const blocks = [
      { type: "thinking", thinking: filler.slice(0, 600), signature: "sig" },
      { type: "text", text: filler.slice(0, 300) },
      { type: "tool_use", id: `toolu_${requests}`, name: "Read", input: { file_path: `/bench/file-${requests}.ts` } },
    ];
    for (const [position, block] of blocks.entries()) {
      const uuid = `a-${requests}-${position}`;
      await write({
        ...base(uuid, sidechain),
        type: "assistant",
        requestId: `req_${requests}`,
        message: {
          id: `msg_${requests}`,
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5-20250929",
          content: [block],
          stop_reason: position === blocks.length - 1 ? "tool_use" : null,
          usage: {
            input_tokens: 12,
            cache_creation_input_tokens: 900,
            cache_read_input_tokens: cacheRead,
            output_tokens: 40 * (position + 1),
          },
        },
      });
      parent = uuid;
    }
    if (requests % 500 === 0) {
      await write({
        ...base(`c-${requests}`, false),
        type: "system",
        subtype: "compact_boundary",
        content: "Conversation compacted",
        compactMetadata: { trigger: "auto", preTokens: 160_000, postTokens: 20_000 },
      });
    }
  }
  out.end();
  await once(out, "finish");
  return { lines, requests };
}

/** Discards output but counts it, so formatting cost is measured without a terminal's. */
class CountingSink extends Writable {
  bytes = 0;
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.bytes += chunk.length;
    done();
  }
}

async function child(path: string, page?: string): Promise<void> {
  const stdout = new CountingSink();
  const stderr = new CountingSink();
  const started = performance.now();
  const code = await runInspect(page === undefined ? [path] : ["--html", page, path], { stdout, stderr, isTTY: false });
  const seconds = (performance.now() - started) / 1000;
  const peakRssMegabytes = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ code, seconds, peakRssMegabytes, outputBytes: stdout.bytes })}\n`);
}

async function main(): Promise<void> {
  if (process.argv[2] === "--child" && process.argv[3] !== undefined) return child(process.argv[3], process.argv[4]);
  const targetMegabytes = Number(process.argv[2] ?? DEFAULT_TARGET_MEGABYTES);
  const directory = await makeTempDir("bench-inspect");
  try {
    const path = join(directory, "bench-session.jsonl");
    const generated = await generateTranscript(path, targetMegabytes * 1_000_000);
    const size = (await stat(path)).size;
    const measure = (extra: string[]) => {
      const result = spawnSync(
        process.execPath,
        ["--import", "tsx", fileURLToPath(import.meta.url), "--child", path, ...extra],
        { encoding: "utf8" },
      );
      if (result.status !== 0) throw new Error(`child failed: ${result.stderr}`);
      return JSON.parse(result.stdout.trim()) as { code: number; seconds: number; peakRssMegabytes: number };
    };
    const measured = measure([]);
    process.stdout.write(
      `inspect: ${(size / 1_000_000).toFixed(1)} MB, ${generated.lines} lines, ${generated.requests} requests\n` +
        `  exit code ${measured.code}, ${measured.seconds.toFixed(2)} s ` +
        `(${(size / 1_000_000 / measured.seconds).toFixed(0)} MB/s), peak RSS ${measured.peakRssMegabytes.toFixed(0)} MB\n`,
    );
    const pagePath = join(directory, "bench-session.html");
    const page = measure([pagePath]);
    const pageSize = (await stat(pagePath)).size;
    process.stdout.write(
      `inspect --html: exit code ${page.code}, ${page.seconds.toFixed(2)} s (${(page.seconds / measured.seconds).toFixed(2)}× the text report), ` +
        `peak RSS ${page.peakRssMegabytes.toFixed(0)} MB, page ${(pageSize / 1_000_000).toFixed(1)} MB\n`,
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

// Run only when executed, so the generator can be imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

/**
 * Images and PDFs from the person (docs/REWIND.md, "Images and PDFs from the person"): `@image.png` or
 * `@report.pdf` in a prompt, a prompt that is just a pasted or dragged file path, and image bytes piped to
 * print mode become image/document blocks. Media the API would refuse is refused here with one line, before
 * any request: no resizing (no well-kept pure-JS resizer is a dependency of this project).
 */
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import type { ImageMediaType, UserContentBlock } from "../messages/index.js";

/** The API's limits (Messages API docs, "Vision" and "PDF support"): base64 size, pixels, PDF size and pages. */
export const MAX_IMAGE_BASE64_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGE_DIMENSION = 8000;
export const MAX_PDF_BYTES = 32 * 1024 * 1024;
export const MAX_PDF_PAGES = 100;

/** Media refused before any request; its message is the one line shown. */
export class MediaError extends Error {
  override readonly name = "MediaError";
}

export function sniffImage(bytes: Uint8Array): ImageMediaType | undefined {
  const starts = (signature: readonly number[], offset = 0) => signature.every((v, i) => bytes[offset + i] === v);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}

/** Width and height from the header (PNG IHDR, GIF screen, JPEG SOFn, WebP VP8/VP8L/VP8X); undefined if unknown. */
export function imageSize(bytes: Buffer, type: ImageMediaType): { width: number; height: number } | undefined {
  if (type === "image/png" && bytes.length >= 24)
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (type === "image/gif" && bytes.length >= 10)
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (type === "image/webp" && bytes.length >= 30) {
    const chunk = bytes.toString("ascii", 12, 16);
    if (chunk === "VP8X") return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
    if (chunk === "VP8L") {
      const bits = bytes.readUInt32LE(21);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
    }
    if (chunk === "VP8 ") return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (type === "image/jpeg") {
    let at = 2;
    while (at + 9 < bytes.length && bytes[at] === 0xff) {
      const marker = bytes[at + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      at += 2 + bytes.readUInt16BE(at + 2);
    }
  }
  return undefined;
}

/** Page objects of a PDF (`/Type /Page`, not `/Pages`): a count from the bytes, without a PDF library. */
export function pdfPageCount(bytes: Buffer): number {
  return (bytes.toString("latin1").match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

/** An image block for `bytes`, or a MediaError naming `name` and the limit it is over. */
export function imageFromBytes(bytes: Buffer, name: string): UserContentBlock {
  const type = sniffImage(bytes);
  if (type === undefined) throw new MediaError(`${name} is not a PNG, JPEG, GIF or WebP image`);
  const base64 = bytes.toString("base64");
  if (base64.length > MAX_IMAGE_BASE64_BYTES)
    throw new MediaError(
      `${name} is ${(base64.length / 1048576).toFixed(1)} MB as base64, over the API's 5 MB per image; not sent (shrink it first)`,
    );
  const size = imageSize(bytes, type);
  if (size !== undefined && Math.max(size.width, size.height) > MAX_IMAGE_DIMENSION)
    throw new MediaError(
      `${name} is ${size.width}×${size.height} px, over the API's ${MAX_IMAGE_DIMENSION} px per side; not sent (shrink it first)`,
    );
  return { type: "image", source: { type: "base64", media_type: type, data: base64 } };
}

function pdfFromBytes(bytes: Buffer, name: string): UserContentBlock {
  if (bytes.length > MAX_PDF_BYTES)
    throw new MediaError(
      `${name} is ${(bytes.length / 1048576).toFixed(1)} MB, over the API's 32 MB per PDF; not sent`,
    );
  const pages = pdfPageCount(bytes);
  if (pages > MAX_PDF_PAGES)
    throw new MediaError(`${name} has ${pages} pages, over the API's ${MAX_PDF_PAGES} per PDF; not sent`);
  return {
    type: "document",
    source: { type: "base64", media_type: "application/pdf", data: bytes.toString("base64") },
  };
}

const MEDIA_PATH = /\.(png|jpe?g|gif|webp|pdf)$/i;

/** A pasted or dragged path as terminals give it: quoted, or with backslash-escaped spaces. */
function unquote(text: string): string {
  const trimmed = text.trim();
  if (/^(['"]).*\1$/.test(trimmed)) return trimmed.slice(1, -1);
  return trimmed.replace(/\\ /g, " ");
}

async function mediaBlock(path: string, cwd: string): Promise<UserContentBlock | undefined> {
  const absolute = isAbsolute(path) ? path : join(cwd, path);
  if (!MEDIA_PATH.test(path) || !existsSync(absolute) || !statSync(absolute).isFile()) return undefined;
  const bytes = await readFile(absolute);
  if (/\.pdf$/i.test(path)) {
    if (bytes.toString("latin1", 0, 5) !== "%PDF-") throw new MediaError(`${path} is not a PDF`);
    return pdfFromBytes(bytes, path);
  }
  return imageFromBytes(bytes, path);
}

/**
 * The content to send for a prompt: the text as it is when it names no media; else the media blocks first,
 * then the text (the person's words stay as typed, `@` mentions included). `piped`: image bytes from stdin.
 */
export async function promptContent(text: string, cwd: string, piped?: Buffer): Promise<string | UserContentBlock[]> {
  const blocks: UserContentBlock[] = [];
  if (piped !== undefined) blocks.push(imageFromBytes(piped, "the piped image"));
  const whole = unquote(text);
  const dragged = whole !== "" && !/\s@/.test(` ${text}`) ? await mediaBlock(whole, cwd) : undefined;
  if (dragged !== undefined) blocks.push(dragged);
  else {
    for (const match of text.matchAll(/(?:^|\s)@("[^"]+"|\S+)/g)) {
      const block = await mediaBlock(unquote(match[1]!), cwd);
      if (block !== undefined) blocks.push(block);
    }
  }
  if (blocks.length === 0) return text;
  const words = text.trim() === "" ? "(see the attached image)" : text;
  return [...blocks, { type: "text", text: words }];
}

/** `promptContent` for print mode: a refused medium is one line on stderr and undefined (exit 1, no request). */
export async function mediaInput(
  prompt: string,
  io: { cwd: string; stderr: NodeJS.WritableStream },
  piped?: Buffer,
): Promise<string | UserContentBlock[] | undefined> {
  try {
    return await promptContent(prompt, io.cwd, piped);
  } catch (error) {
    if (!(error instanceof MediaError)) throw error;
    io.stderr.write(`threadline: ${error.message}\n`);
    return undefined;
  }
}

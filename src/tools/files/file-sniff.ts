/**
 * Content sniffing by bytes, never by extension: a `.png` full of text is text, a `notes` file that is a PNG is
 * an image.
 */
import type { ImageMediaType } from "../../messages/index.js";

/** How many leading bytes are inspected to decide text versus binary. */
export const DEFAULT_SNIFF_BYTES = 8192;

/** The image type named by the file's magic bytes, or undefined. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const startsWith = (signature: readonly number[], offset = 0): boolean =>
    signature.every((value, index) => bytes[offset + index] === value);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return "image/gif";
  }
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}

/**
 * Whether the bytes look binary: any NUL byte, or more than 10% control characters other than tab, newline,
 * carriage return, form feed and escape. UTF-8 multi-byte sequences are all ≥ 0x80 and count as text.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  let control = 0;
  for (const byte of bytes) {
    if (byte === 0) return true;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) control++;
  }
  return control / bytes.length > 0.1;
}

/** A human-readable size: bytes, KB or MB with one decimal. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Reads an image's pixel size from its header bytes (PNG, GIF, WebP, JPEG), so the validator can apply the
 * API's dimension limits without an image library. Unknown or truncated data yields undefined (not checked).
 */

export interface ImageDimensions {
  width: number;
  height: number;
}

/** Base64 characters decoded for formats whose size sits in the first bytes. */
const HEADER_BASE64_CHARS = 64;

export function imageDimensions(base64: string, mediaType: string): ImageDimensions | undefined {
  switch (mediaType) {
    case "image/png":
      return pngDimensions(Buffer.from(base64.slice(0, HEADER_BASE64_CHARS), "base64"));
    case "image/gif":
      return gifDimensions(Buffer.from(base64.slice(0, HEADER_BASE64_CHARS), "base64"));
    case "image/webp":
      return webpDimensions(Buffer.from(base64.slice(0, HEADER_BASE64_CHARS), "base64"));
    case "image/jpeg":
      return jpegDimensions(Buffer.from(base64, "base64"));
    default:
      return undefined;
  }
}

function pngDimensions(bytes: Buffer): ImageDimensions | undefined {
  if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47) return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function gifDimensions(bytes: Buffer): ImageDimensions | undefined {
  if (bytes.length < 10 || bytes.toString("latin1", 0, 3) !== "GIF") return undefined;
  return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

function webpDimensions(bytes: Buffer): ImageDimensions | undefined {
  if (bytes.length < 30 || bytes.toString("latin1", 8, 12) !== "WEBP") return undefined;
  const chunk = bytes.toString("latin1", 12, 16);
  if (chunk === "VP8X") {
    return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  }
  if (chunk === "VP8L") {
    const bits = bytes.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === "VP8 ") {
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  return undefined;
}

function jpegDimensions(bytes: Buffer): ImageDimensions | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    const length = bytes.readUInt16BE(offset + 2);
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5) };
    }
    offset += 2 + length;
  }
  return undefined;
}

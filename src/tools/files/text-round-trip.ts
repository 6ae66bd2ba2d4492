/**
 * Text a tool may rewrite (docs/INVARIANTS.md #9): a file is edited as UTF-8 only when decoding and encoding it
 * again gives back the same bytes. Latin-1, UTF-16 or binary bytes would otherwise come back as U+FFFD on lines
 * the edit never touched.
 */

/** The file's text when its bytes round-trip through UTF-8; otherwise one line saying why it cannot be edited. */
export function decodeRoundTrip(bytes: Buffer, filePath: string): { text: string } | { refusal: string } {
  const text = bytes.toString("utf8");
  if (Buffer.byteLength(text, "utf8") === bytes.length && Buffer.from(text, "utf8").equals(bytes)) return { text };
  const offset = firstInvalidOffset(bytes);
  const byte = bytes[offset] ?? 0;
  return {
    refusal:
      `Cannot edit ${filePath}: it is not valid UTF-8 (byte 0x${byte.toString(16).padStart(2, "0")} at offset ` +
      `${offset}; Latin-1 or another encoding?), and editing it would turn such characters into U+FFFD. The ` +
      "file was not changed; convert it to UTF-8 first, or use Write to replace the whole file.",
  };
}

/** The offset of the first byte that does not start or continue a well-formed UTF-8 sequence (for the message). */
function firstInvalidOffset(bytes: Buffer): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead < 0xe0
          ? 2
          : lead >= 0xe0 && lead < 0xf0
            ? 3
            : lead >= 0xf0 && lead < 0xf5
              ? 4
              : 0;
    if (length === 0 || index + length > bytes.length) return index;
    for (let next = index + 1; next < index + length; next++) {
      if ((bytes[next]! & 0xc0) !== 0x80) return index;
    }
    index += length;
  }
  return Math.max(0, bytes.length - 1);
}

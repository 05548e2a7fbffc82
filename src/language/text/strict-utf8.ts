/**
 * Files decoded strictly. A lenient decoder turns every byte that is not UTF-8 into U+FFFD, so a
 * plan with a broken byte compiled "valid" with text nobody wrote in it; and a file saved as
 * UTF-16 or UTF-32 (some editors and shells on Windows do) came out as a JSON error about a
 * character nobody can see. Each is refused here with what the file is and where.
 */

/** Why the bytes are not a UTF-8 text: the message to show, after the file's name. */
export interface Utf8Problem {
  /** Byte offset of the first byte that is not UTF-8 (0 for a file in another encoding). */
  readonly offset: number;
  /** What the bytes are, and how to fix it: "is UTF-16LE, not UTF-8; save it as UTF-8". */
  readonly message: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The bytes as text, or the reason they are not UTF-8: a UTF-16 or UTF-32 file named by its
 * encoding (recognised by its byte order mark, or for a JSON text without one by the zero bytes
 * around its first ASCII characters), or the offset of the first invalid byte. A UTF-8 byte
 * order mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { problem: Utf8Problem } {
  const other = otherEncoding(bytes);
  if (other)
    return {
      problem: { offset: 0, message: `is ${other}, not UTF-8; save it as UTF-8 (without a byte order mark)` },
    };
  try {
    return { text: decoder.decode(bytes) };
  } catch {
    const offset = firstInvalidByte(bytes);
    const byte = bytes[offset] ?? 0;
    return {
      problem: {
        offset,
        message: `is not valid UTF-8: byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${offset} starts no well-formed UTF-8 character; save the file as UTF-8`,
      },
    };
  }
}

/**
 * UTF-32 or UTF-16 (BE or LE), by the byte order mark, or for a JSON text without one by where
 * the zero bytes of its first (ASCII) characters fall; none of these is UTF-8 JSON, which cannot
 * hold a zero byte outside a string, nor start with one.
 */
function otherEncoding(b: Uint8Array): string | undefined {
  if (b.length >= 4) {
    if (b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) return 'UTF-32LE';
    if (b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return 'UTF-32BE';
    if (b[0] !== 0 && b[1] === 0 && b[2] === 0 && b[3] === 0) return 'UTF-32LE';
    if (b[0] === 0 && b[1] === 0 && b[2] === 0 && b[3] !== 0) return 'UTF-32BE';
  }
  if (b.length >= 2) {
    if (b[0] === 0xff && b[1] === 0xfe) return 'UTF-16LE';
    if (b[0] === 0xfe && b[1] === 0xff) return 'UTF-16BE';
  }
  // Without a mark, two characters are needed to tell: `[` NUL `]` is UTF-8 (and not JSON).
  if (b.length >= 4) {
    if (b[0] !== 0 && b[1] === 0 && b[2] !== 0 && b[3] === 0) return 'UTF-16LE';
    if (b[0] === 0 && b[1] !== 0 && b[2] === 0 && b[3] !== 0) return 'UTF-16BE';
  }
  return undefined;
}

/**
 * The offset where the first ill-formed UTF-8 sequence starts (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF, no sequence cut short), or `bytes.length` when none is.
 */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      else if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      else if (b === 0xf4) high = 0x8f;
    } else return i;
    // The second byte has the narrowed range; the others any continuation byte.
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < low || c > high : c < 0x80 || c > 0xbf) return i;
    }
    i += length;
  }
  return n;
}

/** What the journal's reader asks of a line's bytes and of an error's text. */
import { isUtf8 } from 'node:buffer';

/** Only JSON's whitespace (a CR from an editor included): a line that holds nothing. */
export function isBlank(line: Buffer): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

export function parses(line: Buffer): boolean {
  if (!isUtf8(line)) return false;
  try {
    JSON.parse(line.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/**
 * The UTF-16 units of UTF-8 bytes: one per character, two for a character outside the BMP
 * (a 4-byte sequence). Continuation bytes (10xxxxxx) start no character.
 */
export function utf16Units(bytes: Buffer): number {
  let units = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

export function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const newline = text.indexOf('\n');
  const line = newline < 0 ? text : text.slice(0, newline);
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

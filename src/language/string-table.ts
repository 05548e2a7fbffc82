/**
 * Strings numbered 0, 1, 2... in the order first added, found again by their characters.
 *
 * The reference strings of a plan are mostly distinct and each is looked up again wherever a
 * call reads it. A Map of strings pays, per lookup, for the map's bucket, the stored key (a
 * string somewhere in a heap of hundreds of megabytes) and the value it points to: on a
 * 100k-call plan those scattered loads cost more than parsing. Here the table, the hashes and
 * the characters of short strings sit in a few flat typed arrays (a few megabytes for 100k
 * paths), so a lookup reads the string it is given and little else. Long strings, which are
 * rare, are kept in a Map instead, so the flat arrays never hold more than MAX_FLAT_LENGTH
 * characters per string.
 */

/** Strings longer than this go to the Map: copying them would double their memory. */
const MAX_FLAT_LENGTH = 128;

export class StringTable {
  /** Open addressing: id + 1 per slot, 0 for empty. Never more than half full. */
  #slots = new Int32Array(1024);
  /**
   * Per id, side by side so one lookup loads one cache line: hash, first character in #chars,
   * length (-1 for a string kept in #long), and a spare slot for alignment.
   */
  #meta = new Int32Array(4 * 512);
  #chars = new Uint16Array(4096);
  #used = 0;
  #long = new Map<string, number>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The string's number, or -1 when it was never added. */
  find(text: string): number {
    const length = text.length;
    if (length > MAX_FLAT_LENGTH) return this.#long.get(text) ?? -1;
    const hash = hashOf(text);
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = slots[at]!;
      if (entry === 0) return -1;
      const id = entry - 1;
      const meta = this.#meta;
      if (meta[4 * id] === hash && meta[4 * id + 2] === length && this.#sameChars(meta[4 * id + 1]!, text))
        return id;
    }
  }

  /** Adds a string that {@link find} did not find; returns its number. */
  add(text: string): number {
    const id = this.#size++;
    if (4 * id === this.#meta.length) {
      const meta = new Int32Array(this.#meta.length * 2);
      meta.set(this.#meta);
      this.#meta = meta;
    }
    const meta = this.#meta;
    const length = text.length;
    if (length > MAX_FLAT_LENGTH) {
      this.#long.set(text, id);
      meta[4 * id + 2] = -1;
      return id;
    }
    const hash = hashOf(text);
    meta[4 * id] = hash;
    meta[4 * id + 2] = length;
    if (this.#used + length > this.#chars.length) {
      const chars = new Uint16Array(Math.max(this.#chars.length * 2, this.#used + length));
      chars.set(this.#chars);
      this.#chars = chars;
    }
    const chars = this.#chars;
    const start = this.#used;
    for (let k = 0; k < length; k++) chars[start + k] = text.charCodeAt(k);
    meta[4 * id + 1] = start;
    this.#used += length;
    if (2 * (id + 1) > this.#slots.length) this.#rehash();
    else this.#place(id, hash);
    return id;
  }

  #sameChars(start: number, text: string): boolean {
    const chars = this.#chars;
    for (let k = 0; k < text.length; k++) if (chars[start + k] !== text.charCodeAt(k)) return false;
    return true;
  }

  #place(id: number, hash: number): void {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let at = hash & mask;
    while (slots[at] !== 0) at = (at + 1) & mask;
    slots[at] = id + 1;
  }

  #rehash(): void {
    this.#slots = new Int32Array(this.#slots.length * 2);
    for (let id = 0; id < this.#size; id++) {
      if (this.#meta[4 * id + 2] !== -1) this.#place(id, this.#meta[4 * id]!);
    }
  }
}

/** FNV-1a over UTF-16 code units, mixed at the end so the low bits (the slot) vary. */
function hashOf(text: string): number {
  let h = 0x811c9dc5 | 0;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

/**
 * Strings numbered 0, 1, 2... in the order first added, found again by their characters.
 *
 * The reference strings of a plan are mostly distinct and each is looked up again wherever a
 * call reads it. A Map of strings pays, per lookup, for the map's bucket, the stored key (a
 * string somewhere in a heap of hundreds of megabytes) and the value it points to: on a
 * 100k-call plan those scattered loads cost more than parsing. Here each slot of the table
 * holds what a lookup compares (hash, length, where the characters are) beside the number, and
 * the characters of short strings sit in one flat array: a lookup reads the string it is given,
 * one slot and the characters it matches. Long strings, which are rare, are kept in a Map
 * instead, so the flat array never holds more than MAX_FLAT_LENGTH characters per string.
 *
 * The strings come from untrusted plans, and the hash is a fixed function: a plan made of
 * strings that collide would turn every lookup into a walk along one long run of slots. No
 * lookup looks at more than MAX_PROBES slots: a string that finds no free slot within them is
 * kept in the Map (whose hashing the engine seeds per process) instead.
 */

/** Strings longer than this go to the Map: copying them would double their memory. */
const MAX_FLAT_LENGTH = 128;

/**
 * Most slots a lookup or an insertion looks at. At most half full, a run of 32 occupied slots
 * is vanishingly rare for strings that do not collide on purpose.
 */
const MAX_PROBES = 32;

/** Int32 fields per slot: id + 1 (0 when empty), hash, length, first character in #chars. */
const SLOT = 4;

export class StringTable {
  /** Open addressing over SLOT-wide slots, never more than half full. */
  #slots = new Int32Array(SLOT * 1024);
  #chars = new Uint16Array(4096);
  #used = 0;
  /** Long strings, and those that found no free slot within MAX_PROBES. */
  #long = new Map<string, number>();
  /** Strings in the table (the slots), so it knows when to grow. */
  #flat = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** @internal How many strings are in the Map: the long ones and those that found no free slot. */
  get spilled(): number {
    return this.#long.size;
  }

  /** The string's number, or -1 when it was never added. */
  find(text: string): number {
    const length = text.length;
    if (length > MAX_FLAT_LENGTH) return this.#long.get(text) ?? -1;
    const hash = hashOf(text);
    const slots = this.#slots;
    const mask = slots.length / SLOT - 1;
    for (let at = hash & mask, probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      const base = SLOT * at;
      const entry = slots[base]!;
      if (entry === 0) break;
      if (slots[base + 1] === hash && slots[base + 2] === length && this.#sameChars(slots[base + 3]!, text))
        return entry - 1;
    }
    // Not in the slots; almost always the Map is empty and this costs nothing.
    return this.#long.size === 0 ? -1 : (this.#long.get(text) ?? -1);
  }

  /** Adds a string that {@link find} did not find; returns its number. */
  add(text: string): number {
    const id = this.#size++;
    const length = text.length;
    if (length > MAX_FLAT_LENGTH) {
      this.#long.set(text, id);
      return id;
    }
    if (this.#used + length > this.#chars.length) {
      const chars = new Uint16Array(Math.max(this.#chars.length * 2, this.#used + length));
      chars.set(this.#chars);
      this.#chars = chars;
    }
    const chars = this.#chars;
    const start = this.#used;
    for (let k = 0; k < length; k++) chars[start + k] = text.charCodeAt(k);
    this.#used += length;
    if (2 * ++this.#flat > this.#slots.length / SLOT) this.#grow();
    if (!this.#place(this.#slots, id + 1, hashOf(text), length, start)) {
      this.#flat -= 1;
      this.#long.set(text, id);
    }
    return id;
  }

  #sameChars(start: number, text: string): boolean {
    const chars = this.#chars;
    for (let k = 0; k < text.length; k++) if (chars[start + k] !== text.charCodeAt(k)) return false;
    return true;
  }

  /** Puts the entry in a free slot within MAX_PROBES of its own; false when there is none. */
  #place(slots: Int32Array, entry: number, hash: number, length: number, start: number): boolean {
    const mask = slots.length / SLOT - 1;
    let at = hash & mask;
    for (let probes = 0; slots[SLOT * at] !== 0; at = (at + 1) & mask) {
      if (++probes === MAX_PROBES) return false;
    }
    const base = SLOT * at;
    slots[base] = entry;
    slots[base + 1] = hash;
    slots[base + 2] = length;
    slots[base + 3] = start;
    return true;
  }

  #grow(): void {
    const old = this.#slots;
    const slots = new Int32Array(old.length * 2);
    for (let base = 0; base < old.length; base += SLOT) {
      const entry = old[base]!;
      if (entry === 0) continue;
      const length = old[base + 2]!;
      const start = old[base + 3]!;
      if (!this.#place(slots, entry, old[base + 1]!, length, start)) {
        // Only strings that collide on purpose get here: rebuilt from the characters, once.
        this.#flat -= 1;
        this.#long.set(String.fromCharCode(...this.#chars.subarray(start, start + length)), entry - 1);
      }
    }
    this.#slots = slots;
  }
}

/**
 * FNV-1a over UTF-16 code units, mixed at the end so the low bits (the slot) vary. Exported for
 * the tests, which make strings that collide.
 */
export function hashOf(text: string): number {
  let h = 0x811c9dc5 | 0;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

/**
 * Collecting the ends of elements and sub-calls a resume may reuse, as a scan reads them. A
 * resume that reuses a sub-call writes its end again (a replay of the same result), and a part
 * runs again when what holds it does (a workflow call's retry), with a new start first. So a
 * second end of one part with another result is refused only when no start of the part came
 * since the first: which one the part returned cannot then be told, as for a call's two
 * different completions. Otherwise the last end is the part's result.
 */
import { canonicalJson, isReusable, sameResult } from './journal-format.js';
import { isReusableElement, type PartEnd, partKey, type PartRecord } from './journal-parts.js';

export class PartEnds {
  readonly #ends: Map<string, PartEnd>;
  /** The line of each end kept. */
  readonly #lines = new Map<string, number>();
  /** Parts started again since their end kept. */
  readonly #restarted = new Set<string>();

  constructor(ends: Map<string, PartEnd>) {
    this.#ends = ends;
  }

  /** Keeps the part's end if a resume may reuse it; a problem when it contradicts one kept. */
  add(part: PartRecord, line: number): string | undefined {
    const key = partKey(part.path);
    if (part.type === 'element:start' || part.type === 'sub:start') {
      if (this.#ends.has(key)) this.#restarted.add(key);
      return undefined;
    }
    const reusable = part.type === 'element:end' ? isReusableElement(part) : isReusable(part.event);
    if (!reusable) return undefined;
    const earlier = this.#ends.get(key);
    if (earlier !== undefined && !this.#restarted.delete(key) && !sameEnd(earlier, part)) {
      const what = part.type === 'element:end' ? 'element' : 'sub-call';
      return `a second completed ${part.type} for the ${what} at ${key}, with another result than line ${this.#lines.get(key)!}: which one it returned cannot be told`;
    }
    // Deleted first: a restarted part's end is its latest.
    this.#ends.delete(key);
    this.#ends.set(key, part);
    this.#lines.set(key, line);
    return undefined;
  }
}

function sameEnd(a: PartEnd, b: PartEnd): boolean {
  if (a.type === 'sub:end' && b.type === 'sub:end') return sameResult(a.event, b.event);
  if (a.type === 'element:end' && b.type === 'element:end') {
    return a.count === b.count && canonicalJson(a.output) === canonicalJson(b.output);
  }
  return false;
}

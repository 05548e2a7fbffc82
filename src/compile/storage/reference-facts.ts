/**
 * What one compile learns about each distinct reference string, by the number its parser gave
 * it (StringParser.numberOf), in flat arrays: a byte for what kind of string it is, and its
 * expression and single reference. A string seen again costs its table lookup and the load of
 * a byte from a small array, not a walk through the parsed objects (which, on a large plan,
 * lie anywhere in a heap of hundreds of megabytes, so that each load is a miss in the
 * processor's cache). A read of the common `†state.name` shape touches no object of its string
 * at all: the data flow finds its path's node by the same number (see PathNodes).
 */
import { firstSelector } from '../../language/paths.js';
import type { Expression, Reference } from '../../language/reference.js';
import { MAX_CANONICAL_LENGTH } from './path-nodes.js';

/** Not checked against the limits (yet), or past them: the string is read from its parse. */
export const UNCHECKED = 0;
/** One reference to input covering its whole path (no `[*]`). */
export const SINGLE_INPUT = 1;
/** One reference to state covering its whole path, not written in its canonical text. */
export const SINGLE_STATE = 2;
/** One reference to state, written in its path's canonical text: its number is its node's. */
export const CANONICAL_STATE = 3;
/** Several references (`||`, `&&`), or one with `[*]`. */
export const NOT_SINGLE = 4;

const DAGGER_STATE_LENGTH = '†state'.length;

export class ReferenceFacts {
  /** Per number, its kind (above). Bytes: a read loads one from an array of 100 KB, not 800. */
  #kind = new Uint8Array(1024);
  readonly #expression: (Expression | undefined)[] = [];
  /** The string itself, as first met. */
  readonly #text: string[] = [];
  /**
   * The numbers of the reference strings of the call just read, in the order of its refs (-1
   * for a string not numbered, or past the limits): filled by readCall, read by the data flow
   * right after. Only the first `refCount` entries are the call's.
   */
  readonly ofCall: number[] = [];
  /** The number of the `_outputPath` string of the call just read, or -1. */
  output = -1;
  /**
   * True once a reference to state below its first segment (`†state.x.y`) was met: only such a
   * read can find a property its writer's outputSchema closes out (check/closed-reads.ts), which
   * a plan of whole-output reads then never looks for.
   */
  readsBelowFirstSegment = false;

  /** The kind of string `n`: UNCHECKED until {@link fits} was told of it. */
  kindOf(n: number): number {
    return n < this.#kind.length ? this.#kind[n]! : UNCHECKED;
  }

  /** String `n`'s expression (its kind must not be UNCHECKED). */
  expression(n: number): Expression {
    return this.#expression[n]!;
  }

  /** String `n` (its kind must not be UNCHECKED). */
  text(n: number): string {
    return this.#text[n]!;
  }

  /**
   * String `n`'s one reference, when its kind is SINGLE_INPUT, SINGLE_STATE or CANONICAL_STATE:
   * its expression's only one (found there, not kept twice; no read of a path written before
   * asks for it).
   */
  single(n: number): Reference {
    return this.#expression[n]!.refs[0]!;
  }

  /** Notes that string `n` (`text`), whose expression fits the limits, is that expression. */
  fits(n: number, expression: Expression, text: string): void {
    if (n >= this.#kind.length) {
      const bigger = new Uint8Array(Math.max(this.#kind.length * 2, n + 1));
      bigger.set(this.#kind);
      this.#kind = bigger;
    }
    while (this.#expression.length <= n) {
      this.#expression.push(undefined);
      this.#text.push('');
    }
    const only = expression.refs.length === 1 ? expression.refs[0]! : undefined;
    const single = only === undefined || firstSelector(only.segments) >= 0 ? undefined : only;
    this.#expression[n] = expression;
    this.#text[n] = text;
    if (!this.readsBelowFirstSegment)
      for (const ref of expression.refs)
        if (ref.root === 'state' && ref.segments.length > 1) this.readsBelowFirstSegment = true;
    this.#kind[n] =
      single === undefined
        ? NOT_SINGLE
        : single.root === 'input'
          ? SINGLE_INPUT
          : isCanonical(text, single)
            ? CANONICAL_STATE
            : SINGLE_STATE;
  }
}

/**
 * True when `text`, one reference to state, is written as {@link canonicalText} writes its
 * path: `†state` and `.name` per segment, each name an identifier. A reference parsed from a
 * text without `[`, whose segments are all names not starting with a digit and whose length
 * is exactly that of `†state` and `.segment` each, can have been written no other way. A text
 * longer than MAX_CANONICAL_LENGTH is not: its node is named otherwise.
 */
function isCanonical(text: string, ref: Reference): boolean {
  if (text.length > MAX_CANONICAL_LENGTH || text.indexOf('[') >= 0) return false;
  let length = DAGGER_STATE_LENGTH;
  for (const segment of ref.segments) {
    if (typeof segment !== 'string' || segment === '' || isDigit(segment.charCodeAt(0))) return false;
    length += 1 + segment.length;
  }
  return length === text.length;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * What one compile learns about each distinct reference string, by the number its parser gave
 * it (StringParser.numberOf): kept in flat arrays, so a string seen again costs a table lookup
 * and no walk through the parsed objects (which, on a large plan, lie anywhere in the heap).
 */
import { WILDCARD } from '../language/paths.js';
import type { Expression, Reference } from '../language/reference.js';

export const NOT_SINGLE = 0;
export const ROOT_STATE = 1;
export const ROOT_INPUT = 2;

export class ReferenceFacts {
  /** Per number, the expression when its paths are all within the limits (else undefined). */
  readonly #expressions: (Expression | undefined)[] = [];
  /**
   * Per number, when the expression is one reference without `[*]`: the reference, its text,
   * and its root (STATE or INPUT in #roots, NOT_SINGLE otherwise). The data flow reads these
   * flat arrays instead of the reference object.
   */
  readonly #single: (Reference | undefined)[] = [];
  readonly #texts: string[] = [];
  #roots = new Uint8Array(1024);
  /**
   * The numbers of the reference strings of the call just read, in the order of its `refs`:
   * filled by readCall, read by the data flow right after.
   */
  numbers = new Int32Array(64);
  /** The number of the `_outputPath` string of the call just read, or -1 when it has none. */
  outputNumber = -1;

  /** The expression of a string already found to fit the limits, or undefined. */
  fitting(n: number): Expression | undefined {
    return n < this.#expressions.length ? this.#expressions[n] : undefined;
  }

  /**
   * The root of string `n`'s reference when it fits and is one reference covering its whole
   * path (ROOT_STATE or ROOT_INPUT); NOT_SINGLE otherwise. Then {@link single} and
   * {@link text} give the reference and its text.
   */
  root(n: number): number {
    return n < this.#roots.length ? this.#roots[n]! : NOT_SINGLE;
  }

  single(n: number): Reference {
    return this.#single[n]!;
  }

  text(n: number): string {
    return this.#texts[n]!;
  }

  /** Notes that string `n`'s expression fits the limits. */
  fits(n: number, expression: Expression): void {
    while (this.#expressions.length <= n) {
      this.#expressions.push(undefined);
      this.#single.push(undefined);
      this.#texts.push('');
    }
    this.#expressions[n] = expression;
    const only = expression.refs.length === 1 ? expression.refs[0]! : undefined;
    if (only === undefined || only.segments.includes(WILDCARD)) return;
    this.#single[n] = only;
    this.#texts[n] = only.text;
    if (n >= this.#roots.length) {
      const grown = new Uint8Array(Math.max(this.#roots.length * 2, n + 1));
      grown.set(this.#roots);
      this.#roots = grown;
    }
    this.#roots[n] = only.root === 'input' ? ROOT_INPUT : ROOT_STATE;
  }

  /** Room for `count` numbers in {@link numbers}. */
  reserve(count: number): Int32Array {
    if (count > this.numbers.length) this.numbers = new Int32Array(Math.max(count, this.numbers.length * 2));
    return this.numbers;
  }
}

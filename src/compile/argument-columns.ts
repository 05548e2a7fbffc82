/**
 * Every reference argument of a compile, in columns: one entry per reference, the calls' in
 * array order, each call's a contiguous run. A call keeps where its run starts and how long it
 * is; its `refs` become objects only when someone asks for them (a dry run, a prompt, a
 * diagnostic). The compiler and the executor read the columns.
 *
 * On a plan of 100k calls with three references each, the objects were 300k, plus an array
 * per call: about a tenth of what reading the calls allocated, all of it kept for the life of
 * the plan, and each object written where the collector must then look.
 */
import type { Expression } from '../language/reference.js';
import type { ArgumentReference } from './types.js';

export class ArgumentColumns {
  /** JSON pointer inside the call's arguments of each reference string. */
  readonly #at: string[] = [];
  /** Its parsed expression (shared by equal strings of one compile). */
  readonly #expression: Expression[] = [];
  /** The string as written. */
  readonly #text: string[] = [];

  /** How many references so far: where the next call's run starts. */
  get size(): number {
    return this.#at.length;
  }

  add(at: string, expression: Expression, text: string): void {
    this.#at.push(at);
    this.#expression.push(expression);
    this.#text.push(text);
  }

  at(k: number): string {
    return this.#at[k]!;
  }

  expression(k: number): Expression {
    return this.#expression[k]!;
  }

  text(k: number): string {
    return this.#text[k]!;
  }

  /** The references `start` to `start + count - 1` as objects, in a new array. */
  objects(start: number, count: number): readonly ArgumentReference[] {
    const refs = new Array<ArgumentReference>(count);
    for (let k = 0; k < count; k++) {
      const j = start + k;
      refs[k] = { at: this.#at[j]!, expression: this.#expression[j]!, text: this.#text[j]! };
    }
    return refs;
  }
}

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
import type { Expression } from '../../language/reference.js';
import { IntColumn } from './int-column.js';
import type { ReferenceFacts } from './reference-facts.js';
import type { ArgumentReference } from '../types.js';

export class ArgumentColumns {
  /** JSON pointer inside the call's arguments of each reference string. */
  readonly #at: string[] = [];
  /**
   * The number of each reference string: its expression and text are the facts' (shared by
   * equal strings of one compile). A number, not the expression, so that reading a call
   * never loads what its strings were found to be the first time (on a large plan, from
   * anywhere in the heap).
   */
  readonly #number = new IntColumn();
  /**
   * Each reference's expression, filled from the facts in one pass when first asked for (by
   * the executor or the dry run, or by the compile for a reference that is not a single one):
   * a loop of lookups in the facts' array, which then stays in the processor's cache, rather
   * than one lookup per reference read amid everything else a compile touches.
   */
  readonly #expression: Expression[] = [];

  constructor(private readonly facts: ReferenceFacts) {}

  /** True once any reference string reads state below its first segment (see ReferenceFacts). */
  get readsBelowFirstSegment(): boolean {
    return this.facts.readsBelowFirstSegment;
  }

  /** How many references so far: where the next call's run starts. */
  get size(): number {
    return this.#at.length;
  }

  /** Adds a reference string numbered `n`, whose facts know its expression. */
  add(at: string, n: number): void {
    this.#at.push(at);
    this.#number.push(n);
  }

  at(k: number): string {
    return this.#at[k]!;
  }

  expression(k: number): Expression {
    if (k >= this.#expression.length) this.#fillExpressions();
    return this.#expression[k]!;
  }

  #fillExpressions(): void {
    const numbers = this.#number;
    for (let j = this.#expression.length; j < numbers.size; j++)
      this.#expression.push(this.facts.expression(numbers.at(j)));
  }

  text(k: number): string {
    return this.facts.text(this.#number.at(k));
  }

  /** The references `start` to `start + count - 1` as objects, in a new array. */
  objects(start: number, count: number): readonly ArgumentReference[] {
    const refs = new Array<ArgumentReference>(count);
    for (let k = 0; k < count; k++) {
      const j = start + k;
      refs[k] = { at: this.#at[j]!, expression: this.expression(j), text: this.text(j) };
    }
    return refs;
  }
}

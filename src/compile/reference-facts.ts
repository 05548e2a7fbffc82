/**
 * What one compile learns about each distinct reference string, by the number its parser gave
 * it (StringParser.numberOf): one small record per string, so a string seen again costs a table
 * lookup and one load, not a walk through the parsed objects (which, on a large plan, lie
 * anywhere in the heap) nor a load from each of several arrays.
 */
import { WILDCARD } from '../language/paths.js';
import type { Expression, Reference } from '../language/reference.js';
import type { TrieNode } from './path-trie.js';

export const NOT_SINGLE = 0;
export const ROOT_STATE = 1;
export const ROOT_INPUT = 2;

/**
 * One reference string whose paths are all within the limits. Everything a read of it needs
 * sits here, in one object: on a 100k-call plan each read used to load its expression, its
 * reference, its text, its root and its path's node from five arrays of 100k entries, and each
 * load was a miss in the processor's cache.
 */
export interface StringFacts {
  readonly expression: Expression;
  /**
   * The root of its reference when the string is one reference covering its whole path (no
   * `[*]`): ROOT_STATE or ROOT_INPUT; NOT_SINGLE otherwise. Then `single` and `text` are that
   * reference and its text.
   */
  readonly root: number;
  readonly single: Reference | undefined;
  readonly text: string;
  /** @internal The data flow's frontier node of the path, once it has one (see DataFlow). */
  node: TrieNode | undefined;
}

export class ReferenceFacts {
  /** Per number, the string's facts when its paths are all within the limits (else undefined). */
  readonly #byNumber: (StringFacts | undefined)[] = [];
  /**
   * The facts of the reference strings of the call just read, in the order of its `refs`
   * (undefined for a string not numbered, or not within the limits): filled by readCall, read
   * by the data flow right after. Only the first `refs.length` entries are the call's.
   */
  readonly ofCall: (StringFacts | undefined)[] = [];
  /** The facts of the `_outputPath` string of the call just read, or undefined. */
  output: StringFacts | undefined = undefined;

  /** The facts of a string already found to fit the limits, or undefined. */
  fitting(n: number): StringFacts | undefined {
    return n < this.#byNumber.length ? this.#byNumber[n] : undefined;
  }

  /** Notes that string `n`'s expression fits the limits; returns its facts. */
  fits(n: number, expression: Expression): StringFacts {
    while (this.#byNumber.length <= n) this.#byNumber.push(undefined);
    const only = expression.refs.length === 1 ? expression.refs[0]! : undefined;
    const single = only === undefined || only.segments.includes(WILDCARD) ? undefined : only;
    // A literal, not a class: V8 learns that a literal's objects live long (as the trie's nodes).
    const facts: StringFacts = {
      expression,
      root: single === undefined ? NOT_SINGLE : single.root === 'input' ? ROOT_INPUT : ROOT_STATE,
      single,
      text: single === undefined ? '' : single.text,
      node: undefined,
    };
    this.#byNumber[n] = facts;
    return facts;
  }
}

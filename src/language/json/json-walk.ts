/**
 * The walk behind checkJson and copyJson (json-value.ts): one loop over an explicit stack of
 * containers, checking each value against the limits and JSON's rules and (when copying)
 * building the copy as it goes, so that a value nested 100,000 levels deep costs a refusal,
 * not a crash. A problem stops the walk with the pointer to the bad part and how to fix it.
 */
import type { Limits } from '../limits.js';
import { scalarSize } from './known-json.js';
import { escapePointerToken } from '../pointer.js';
import { setOwnProperty } from './set-own-property.js';

/** Why a value was refused: `LIMIT` when it is too big or deep, `NOT_JSON` when JSON cannot hold it. */
export type JsonProblemCode = 'LIMIT' | 'NOT_JSON';

export interface JsonProblem {
  readonly code: JsonProblemCode;
  /** RFC 6901 pointer to the bad part, inside the value ("" is the value itself). */
  readonly pointer: string;
  /** What is wrong there, as the end of a sentence: "nests deeper than 64 levels". */
  readonly message: string;
  /** How to fix it. */
  readonly hint: string;
}

export interface JsonWalkOptions {
  readonly limits: Limits;
  /**
   * Nesting levels already used above the value: the length of the state path it is written at.
   * @default 0
   */
  readonly depth?: number;
  /**
   * Characters of `limits.maxTextLength` already used elsewhere (by the rest of the state).
   * @default 0
   */
  readonly usedSize?: number;
}

/**
 * What a walk that found no problem learned about an object: enough to check it against other
 * limits without walking it again. An object checked once is taken to stay as it was: planmode
 * never changes the values it is given, and a caller that changes one after handing it over
 * changes its own data under a run.
 */
export interface JsonShape {
  readonly size: number;
  /** Nesting levels inside the object, the object itself counting 1. */
  readonly depth: number;
  /** Members of its largest object. */
  readonly keys: number;
}

/** One container being walked: where it sits, for pointers, and (when copying) its copy. */
interface Frame {
  readonly source: object;
  readonly target: Record<string, unknown> | unknown[] | null;
  readonly parent: Frame | null;
  readonly key: string | number;
  /** Nesting level of this container: the value itself is 1 (plus the `depth` option). */
  readonly level: number;
}

/** Objects JSON.stringify would turn into `{}` or garble without a word: refused by name. */
const LOSSY: readonly [new (...args: never[]) => object, string, string][] = [
  [Map, 'a Map', 'convert it to an object (Object.fromEntries(map))'],
  [Set, 'a Set', 'convert it to an array ([...set])'],
  [WeakMap, 'a WeakMap', 'return plain data'],
  [WeakSet, 'a WeakSet', 'return plain data'],
  [Promise, 'a Promise', 'await it and return its value'],
  [RegExp, 'a RegExp', 'return its source as a string'],
  [Error, 'an Error', 'return {message} or throw it to fail the call'],
  [ArrayBuffer, 'an ArrayBuffer', 'convert it to an array or a base64 string'],
  [DataView, 'a DataView', 'convert it to an array or a base64 string'],
];

const NOT_DATA_HINT = 'return plain JSON data: objects, arrays, strings, finite numbers, booleans and null';

export class Walk {
  problem: JsonProblem | undefined;
  result: unknown;
  readonly #limits: Limits;
  readonly #base: number;
  readonly #budget: number;
  readonly #copy: boolean;
  #size = 0;
  #deepest = 0;
  #widest = 0;

  constructor(options: JsonWalkOptions, copy: boolean) {
    this.#limits = options.limits;
    this.#base = options.depth ?? 0;
    this.#budget = options.limits.maxTextLength - (options.usedSize ?? 0);
    this.#copy = copy;
  }

  /** What the walk saw, for the cache of checked objects. */
  shape(size: number): JsonShape {
    return { size, depth: this.#deepest - this.#base, keys: this.#widest };
  }

  /** Walks the value; returns its size (meaningless when `problem` is set). */
  run(value: unknown): number {
    const stack: Frame[] = [];
    this.result = this.#take(value, null, '', stack);
    while (stack.length > 0 && !this.problem) this.#fill(stack.pop()!, stack);
    if (!this.problem && this.#size > this.#budget) this.#tooBig(null, '');
    return this.#size;
  }

  /**
   * The copy of one value (or the value itself when only checking), with its container queued
   * on `stack` for its members. Undefined when the value is dropped or refused.
   */
  #take(raw: unknown, parent: Frame | null, key: string | number, stack: Frame[]): unknown {
    let value = raw;
    if (value !== null && typeof value === 'object' && this.#copy) {
      value = this.#unwrap(value, parent, key);
      if (this.problem) return undefined;
    }
    switch (typeof value) {
      case 'string':
        this.#size += value.length + 2;
        if (this.#size > this.#budget) return this.#tooBig(parent, key);
        return value;
      case 'boolean':
        this.#size += value ? 4 : 5;
        return value;
      case 'number':
        if (Number.isFinite(value)) {
          this.#size += scalarSize(value);
          return value;
        }
        if (!this.#copy)
          return this.#refuse(parent, key, `is ${value}, which JSON cannot hold`, NOT_DATA_HINT);
        this.#size += 4;
        return null; // as JSON.stringify writes it
      case 'undefined':
        return undefined; // dropped from an object, null in an array (counted there)
      case 'bigint':
        return this.#refuse(
          parent,
          key,
          `is a BigInt (${shortText(value)}n), which JSON cannot hold`,
          'convert it to a number or a string',
        );
      case 'function':
        return this.#refuse(parent, key, 'is a function, which JSON cannot hold', NOT_DATA_HINT);
      case 'symbol':
        return this.#refuse(parent, key, 'is a symbol, which JSON cannot hold', NOT_DATA_HINT);
    }
    if (value === null) {
      this.#size += 4;
      return null;
    }
    const object = value as object;
    const level = (parent ? parent.level : this.#base) + 1;
    if (level > this.#limits.maxDepth) {
      const cycle = parent ? firstCycle(parent, object, key) : undefined;
      if (cycle) {
        this.problem ??= {
          code: 'NOT_JSON',
          pointer: cycle.at,
          message: `refers back to ${cycle.back === '' ? 'the value itself' : cycle.back}: a cycle, which JSON cannot hold`,
          hint: 'return a tree: copy shared parts instead of linking back to them',
        };
        return undefined;
      }
      return this.#limit(
        parent,
        key,
        `nests deeper than ${this.#limits.maxDepth} levels${this.#base > 0 ? ` (with the ${this.#base} of its path)` : ''}`,
        'flatten the value, or raise limits.maxDepth',
      );
    }
    let isArray: boolean;
    try {
      isArray = Array.isArray(object);
    } catch (e) {
      return this.#refuse(parent, key, `cannot be read (${errorText(e)})`, NOT_DATA_HINT); // a revoked Proxy
    }
    if (!isArray && !this.#copy && !isPlainObject(object)) {
      return this.#refuse(parent, key, `is ${describeObject(object)}, not plain JSON data`, NOT_DATA_HINT);
    }
    const target = this.#copy ? (isArray ? [] : {}) : null;
    if (level > this.#deepest) this.#deepest = level;
    stack.push({ source: object, target, parent, key, level });
    return target ?? object;
  }

  /** Copies the members of one container, queueing the containers among them. */
  #fill(frame: Frame, stack: Frame[]): void {
    const { source, target } = frame;
    if (Array.isArray(source)) {
      let length: number;
      try {
        length = source.length;
      } catch (e) {
        this.#refuse(frame, null, `cannot be read (${errorText(e)})`, NOT_DATA_HINT);
        return;
      }
      // Checked before the loop: `a.length = 1e9` is one statement, and its holes print as nulls.
      if (this.#size + 2 * length > this.#budget) return this.#tooBig(frame, null);
      this.#size += 2 + Math.max(0, length - 1);
      const out = target as unknown[] | null;
      for (let i = 0; i < length && !this.problem; i++) {
        let item: unknown;
        try {
          item = source[i];
        } catch (e) {
          this.#refuse(frame, i, `cannot be read: its getter threw (${errorText(e)})`, NOT_DATA_HINT);
          return;
        }
        const copy = this.#take(item, frame, i, stack);
        if (copy === undefined) this.#size += 4;
        if (out) out[i] = copy === undefined ? null : copy;
      }
      return;
    }
    let keys: string[];
    try {
      keys = Object.keys(source);
    } catch (e) {
      this.#refuse(frame, null, `cannot be read (${errorText(e)})`, NOT_DATA_HINT);
      return;
    }
    if (keys.length > this.#limits.maxKeys) {
      this.#limit(
        frame,
        null,
        `has ${keys.length} members; the limit is ${this.#limits.maxKeys}`,
        'split the object, or raise limits.maxKeys',
      );
      return;
    }
    if (keys.length > this.#widest) this.#widest = keys.length;
    this.#size += 2 + Math.max(0, keys.length - 1);
    const out = target as Record<string, unknown> | null;
    for (let k = 0; k < keys.length && !this.problem; k++) {
      const key = keys[k]!;
      let item: unknown;
      try {
        item = (source as Record<string, unknown>)[key];
      } catch (e) {
        this.#refuse(frame, key, `cannot be read: its getter threw (${errorText(e)})`, NOT_DATA_HINT);
        return;
      }
      const copy = this.#take(item, frame, key, stack);
      if (copy === undefined) continue;
      this.#size += key.length + 3;
      if (out) setOwnProperty(out, key, copy);
    }
    if (this.#size > this.#budget) this.#tooBig(frame, null);
  }

  /** What JSON.stringify would serialize in place of an object: its toJSON() or its primitive. */
  #unwrap(object: object, parent: Frame | null, key: string | number): unknown {
    try {
      const toJSON = (object as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        const replaced: unknown = toJSON.call(object, String(key));
        // A toJSON that returns another object with a toJSON is not called again (as in JSON).
        return replaced;
      }
      if (object instanceof Number || object instanceof String || object instanceof Boolean) {
        return object.valueOf();
      }
      for (const [type, name, hint] of LOSSY) {
        if (object instanceof type)
          return this.#refuse(parent, key, `is ${name}, which JSON cannot hold`, hint);
      }
      if (ArrayBuffer.isView(object)) {
        return this.#refuse(
          parent,
          key,
          `is a ${object.constructor?.name ?? 'typed array'}, which JSON cannot hold`,
          'convert it to an array or a base64 string',
        );
      }
    } catch (e) {
      return this.#refuse(parent, key, `cannot be read (${errorText(e)})`, NOT_DATA_HINT);
    }
    return object;
  }

  #tooBig(frame: Frame | null, key: string | number | null): undefined {
    return this.#limit(
      frame,
      key,
      `is larger than ${this.#limits.maxTextLength} characters of JSON`,
      'return less data (a summary, a page), or raise limits.maxTextLength',
    );
  }

  #limit(frame: Frame | null, key: string | number | null, message: string, hint: string): undefined {
    this.problem ??= { code: 'LIMIT', pointer: pointerOf(frame, key), message, hint };
    return undefined;
  }

  #refuse(frame: Frame | null, key: string | number | null, message: string, hint: string): undefined {
    this.problem ??= { code: 'NOT_JSON', pointer: pointerOf(frame, key), message, hint };
    return undefined;
  }
}

/** The pointer of `key` inside the container `frame` walks (or of the container when key is null). */
function pointerOf(frame: Frame | null, key: string | number | null): string {
  const tokens: (string | number)[] = key === null ? [] : [key];
  for (let f = frame; f && f.parent; f = f.parent) tokens.push(f.key);
  let pointer = '';
  for (let i = tokens.length - 1; i >= 0; i--) pointer += `/${escapePointerToken(tokens[i]!)}`;
  // The root frame's key is '' and is not part of the pointer; a frame with a parent always has one.
  return pointer;
}

/**
 * Where the walk first went round a cycle on its way down to `object` (at `key` in `parent`):
 * the first container on the path that is one above it, and the one it is. Looked for only
 * once the path is too deep, so a shared (acyclic) part costs nothing.
 */
function firstCycle(
  parent: Frame,
  object: object,
  key: string | number,
): { at: string; back: string } | undefined {
  const path: Frame[] = [];
  for (let f: Frame | null = parent; f; f = f.parent) path.push(f);
  const seen = new Map<object, Frame>();
  for (let k = path.length - 1; k >= 0; k--) {
    const frame = path[k]!;
    const earlier = seen.get(frame.source);
    if (earlier) return { at: pointerOf(frame, null), back: pointerOf(earlier, null) };
    seen.set(frame.source, frame);
  }
  const earlier = seen.get(object);
  return earlier ? { at: pointerOf(parent, key), back: pointerOf(earlier, null) } : undefined;
}

function isPlainObject(object: object): boolean {
  const proto: unknown = Object.getPrototypeOf(object);
  return proto === Object.prototype || proto === null;
}

function describeObject(object: object): string {
  const name = (object as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a prototype';
}

function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : typeof e === 'string' ? e : 'a non-error value';
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function shortText(value: bigint): string {
  const text = value.toString();
  return text.length > 20 ? `${text.slice(0, 20)}…` : text;
}

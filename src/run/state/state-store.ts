/**
 * The run's state: copy-on-write over the initial state. The initial state is never copied
 * whole and never mutated; a write copies only the containers on its path that the run does not
 * own yet (once each), so a run over a state of a million keys pays for what it writes, not for
 * what it leaves alone. What calls read is handed out frozen and shared ({@link RunState.share}):
 * a value no write has replaced is frozen (or, when it is the caller's, copied and frozen) once,
 * however many calls read it, and a later write copies a frozen container instead of changing
 * it. Values arrive as checked JSON copies (see language/json-value), paths
 * come from the compiler (no `__proto__`, `prototype` or `constructor` segment), and the state's
 * JSON size is kept as it changes, so no sequence of writes can grow it past
 * `limits.maxTextLength`, however small each write is (an index far past an array's end adds
 * a hole per missing element, which prints as `null`).
 */
import type { JsonObject } from '../../language/document.js';
import { cloneJson, jsonSize } from '../../language/json/index.js';
import type { Limits } from '../../language/limits.js';
import type { PathSegment } from '../../language/paths.js';
import { setOwnProperty } from '../../language/json/index.js';

export { setOwnProperty } from '../../language/json/index.js';

/** A write the state cannot take: `code` is the failed call's error code. */
export class StateWriteError extends Error {
  override name = 'StateWriteError';
  constructor(
    message: string,
    /** `LIMIT` when the state would grow too big, `STATE_CONFLICT` when the path cannot be written. */
    readonly code: 'LIMIT' | 'STATE_CONFLICT',
  ) {
    super(message);
  }
}

export interface RunStateOptions {
  readonly limits: Limits;
  /** The initial state's JSON size, when it is known already (it was checked). */
  readonly size: number;
}

export class RunState {
  #root: JsonObject;
  /**
   * Containers the run made whole (a written value, a container a path created): nothing below
   * them is the caller's. Mutated in place until frozen (then they leave this set).
   */
  readonly #whole = new WeakSet<object>();
  /**
   * Containers the run copied (one level) to write into, until frozen: below them may be the
   * caller's. A copy of a frozen container maps to the keys written into it since: every other
   * member is frozen already, so sharing it again looks at those keys only, not at a million.
   */
  readonly #copied = new WeakMap<object, Set<string> | null>();
  /** Containers handed to a call: never changed again. */
  readonly #frozen = new WeakSet<object>();
  /** A container the run may not freeze (the caller's, or below a copy) and its frozen copy. */
  readonly #sharedCopies = new WeakMap<object, object>();
  #size: number;
  readonly #limits: Limits;
  /**
   * Set while the root is the run's to write into (made or copied, not frozen since), with the
   * keys written into it when it is a copy of a frozen one: a write of one top-level key (the
   * most common write) then looks nothing up.
   */
  #rootOwned = false;
  #rootChanged: Set<string> | null = null;

  constructor(initial: JsonObject, options: RunStateOptions) {
    this.#root = initial;
    this.#size = options.size;
    this.#limits = options.limits;
  }

  /** The state now. It shares what no write has touched with the initial state. */
  get value(): JsonObject {
    return this.#root;
  }

  /**
   * The state's JSON size now (see language/json-value for how it is counted): at least the
   * length of its JSON text, and ahead of it by at most one character per object written into.
   */
  get size(): number {
    return this.#size;
  }

  /**
   * Writes `value` (a JSON copy the run owns from now on, of JSON size `size`) at `segments`,
   * creating intermediate objects or arrays (an array when the next segment is an index).
   *
   * @throws {StateWriteError} when the state would grow past `limits.maxTextLength`, when the
   *   whole state would be replaced by something other than an object, or when a key would be
   *   written into an array (JSON would drop it).
   */
  write(segments: readonly PathSegment[], value: unknown, size: number): void {
    if (segments.length === 0) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new StateWriteError('only an object can replace the whole state (†state)', 'STATE_CONFLICT');
      }
      this.#checkGrowth(size - this.#size);
      this.#rootOwned = false;
      this.#root = value as JsonObject;
      this.#whole.add(value);
      this.#size = size;
      return;
    }
    if (segments.length === 1 && typeof segments[0] === 'string')
      return this.#writeTop(segments[0], value, size);
    // Measured before anything changes, so a refused write leaves the state exactly as it was.
    const growth = this.#growth(segments, size);
    this.#checkGrowth(growth);
    let container = this.#own(this.#root, null, '');
    const last = segments.length - 1;
    for (let k = 0; k < last; k++) {
      const key = keyIn(container, segments[k]!);
      const next = readOwn(container, key);
      if (next !== null && typeof next === 'object') {
        container = this.#own(next, container, key);
        continue;
      }
      const created = typeof segments[k + 1] === 'number' ? [] : {};
      this.#set(container, key, created);
      this.#whole.add(created);
      container = created;
    }
    this.#set(container, keyIn(container, segments[last]!), value);
    if (value !== null && typeof value === 'object') this.#whole.add(value);
    this.#size += growth;
  }

  /** `write` of one top-level key: the same steps as the general path, with nothing to walk. */
  #writeTop(key: string, value: unknown, size: number): void {
    const old = readOwn(this.#root, key);
    // As #growth counts it: the old value goes, or a new member `"key":` and a comma comes.
    const growth = (old === undefined ? key.length + 4 : -jsonSize(old)) + size;
    this.#checkGrowth(growth);
    if (!this.#rootOwned) {
      this.#own(this.#root, null, '');
      this.#rootChanged = this.#copied.get(this.#root) ?? null;
      this.#rootOwned = true;
    }
    setOwnProperty(this.#root, key, value);
    this.#rootChanged?.add(key);
    if (value !== null && typeof value === 'object') this.#whole.add(value);
    this.#size += growth;
  }

  /**
   * How many characters the write adds to the state's JSON (negative when it replaces more than it
   * writes), following the path without changing anything.
   * @throws {StateWriteError} for a key that would go into an array.
   */
  #growth(segments: readonly PathSegment[], size: number): number {
    const last = segments.length - 1;
    let growth = 0;
    // The container the path is in at step k: an existing one, or (once the path leaves what
    // exists) null for the new, empty array or object that `write` will create there.
    let current: object | null = this.#root;
    for (let k = 0; k <= last; k++) {
      const isArray = current ? Array.isArray(current) : typeof segments[k] === 'number';
      const key = current ? keyIn(current, segments[k]!, k) : segments[k]!;
      const next: unknown = current ? readOwn(current as Record<string, unknown>, key) : undefined;
      if (k < last && next !== null && typeof next === 'object') {
        current = next; // an existing container on the path: the write goes on inside it
        continue;
      }
      if (next !== undefined)
        growth -= jsonSize(next); // replaced: its old value goes
      else if (isArray) {
        const length = current ? (current as unknown[]).length : 0;
        const index = key as number;
        if (index < length)
          growth -= 4; // a hole, which printed as null
        else {
          // Appended past the end: a `null` per hole, then the element, and a comma before
          // each (none before the first element of an empty array).
          const added = index - length + 1;
          growth += 4 * (added - 1) + (length > 0 ? added : added - 1);
        }
      } else {
        // A new member: `"key":` and a comma, but no comma in an object this write creates.
        // Telling whether an existing object was empty costs a walk of its keys, so there the
        // comma is always counted: the size runs at most one character per object ahead of
        // the text, never behind it.
        growth += String(key).length + (current ? 4 : 3);
      }
      if (k === last) growth += size;
      else {
        growth += 2; // the new, empty container that takes the rest of the path
        current = null;
      }
    }
    return growth;
  }

  /** The container the run may mutate in place of `container`: itself when owned, else a shallow copy put where it was. */
  #own(container: object, parent: object | null, key: PathSegment): Record<string, unknown> | unknown[] {
    // Frozen containers have left both: a mutable one is in one of them (a copy, most often).
    if (this.#copied.has(container) || this.#whole.has(container))
      return container as Record<string, unknown>;
    const copy = shallowCopy(container);
    this.#copied.set(copy, this.#frozen.has(container) ? new Set() : null);
    if (parent === null) this.#root = copy as JsonObject;
    else this.#set(parent, key, copy);
    return copy;
  }

  /** Sets a member, noting the key when the container is a copy of a frozen one. */
  #set(container: object, key: PathSegment, value: unknown): void {
    setOwnProperty(container, key, value);
    this.#copied.get(container)?.add(String(key));
  }

  /**
   * A value read from the state or the input, as a call gets it: frozen, so no tool can change
   * the state (or another call's arguments) through it, and shared: the same value for every call
   * that reads it until a write replaces it, so a million-key value read by ten calls is not
   * copied ten times. The run's own containers are frozen in place; the caller's (the initial
   * state, the input) are copied once and that copy frozen. Iterative: no recursion over the value.
   */
  share<T>(value: T): T {
    if (value === null || typeof value !== 'object') return value;
    const root = value as object;
    if (this.#frozen.has(root)) return value;
    if (!this.#mutable(root)) return this.#frozenCopy(root) as T;
    // Post-order over the run's own containers: children are settled (a caller's child replaced
    // by its frozen copy) before their parent is frozen. `inWhole`: below a whole container every
    // unmarked container is the run's too, and frozen where it is.
    const stack: { container: object; inWhole: boolean; expanded: boolean }[] = [
      { container: root, inWhole: this.#whole.has(root), expanded: false },
    ];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.expanded) {
        stack.pop();
        if (top.container === this.#root) this.#rootOwned = false;
        Object.freeze(top.container);
        this.#frozen.add(top.container);
        this.#whole.delete(top.container);
        this.#copied.delete(top.container);
        continue;
      }
      top.expanded = true;
      const container = top.container as Record<string, unknown>;
      const changed = this.#copied.get(container);
      for (const key of changed ?? ownKeys(container)) {
        const child: unknown = container[key];
        if (child === null || typeof child !== 'object' || this.#frozen.has(child)) continue;
        if (top.inWhole || this.#mutable(child)) {
          // A copy (one level) may hold the caller's containers below it, wherever it sits.
          const inWhole = this.#whole.has(child) || (top.inWhole && !this.#copied.has(child));
          stack.push({ container: child, inWhole, expanded: false });
        } else {
          container[key] = this.#frozenCopy(child);
        }
      }
    }
    return value;
  }

  /**
   * Hands out an array made of values {@link share} handed out already (a `[*]` selection over a
   * shared container): its elements are frozen or primitive, so only the array itself is frozen,
   * where `share` would copy it whole as a value it does not know.
   */
  shareSelection(selection: unknown[]): unknown[] {
    Object.freeze(selection);
    this.#frozen.add(selection);
    return selection;
  }

  /** The run made or copied this container and may still change or freeze it in place. */
  #mutable(container: object): boolean {
    return this.#whole.has(container) || this.#copied.has(container);
  }

  /**
   * The frozen copy of a container that is not the run's to freeze: made once. Such a container
   * never changes while the run lasts (a write copies it first), so its copy stays true.
   */
  #frozenCopy(container: object): object {
    let copy = this.#sharedCopies.get(container);
    if (copy === undefined) {
      copy = cloneJson(container);
      const stack: object[] = [copy];
      while (stack.length > 0) {
        const next = stack.pop()!;
        for (const key in next) {
          const child: unknown = (next as Record<string, unknown>)[key];
          if (child !== null && typeof child === 'object') stack.push(child);
        }
        Object.freeze(next);
        this.#frozen.add(next);
      }
      this.#sharedCopies.set(container, copy);
    }
    return copy;
  }

  #checkGrowth(growth: number): void {
    if (this.#size + growth > this.#limits.maxTextLength) {
      throw new StateWriteError(
        `the write would grow the state to about ${this.#size + growth} characters of JSON; the limit is ${this.#limits.maxTextLength} (limits.maxTextLength)`,
        'LIMIT',
      );
    }
  }
}

/**
 * The key as the container takes it: in an array, an index (a canonical digit string counts);
 * a name there is refused, as JSON would drop it.
 * @throws {StateWriteError}
 */
function keyIn(container: object, key: PathSegment, at?: number): PathSegment {
  if (!Array.isArray(container) || typeof key === 'number') return key;
  if (/^(0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1) return Number(key);
  throw new StateWriteError(
    `cannot write the key "${key}" into an array${at === undefined ? '' : ` (path segment ${at + 1})`}: JSON would drop it`,
    'STATE_CONFLICT',
  );
}

function readOwn(container: Record<string, unknown> | unknown[], key: PathSegment): unknown {
  if (Array.isArray(container)) {
    return typeof key === 'number' && key < container.length ? container[key] : undefined;
  }
  const name = String(key);
  return Object.hasOwn(container, name) ? container[name] : undefined;
}

function shallowCopy(container: object): Record<string, unknown> | unknown[] {
  if (Array.isArray(container)) return container.slice();
  const copy: Record<string, unknown> = {};
  for (const key in container) {
    if (Object.hasOwn(container, key)) setOwnProperty(copy, key, (container as Record<string, unknown>)[key]);
  }
  return copy;
}

/** The own keys of a container, lazily (a million-key object is not listed up front). */
function* ownKeys(container: Record<string, unknown>): Generator<string> {
  for (const key in container) if (Object.hasOwn(container, key)) yield key;
}

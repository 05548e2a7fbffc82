/**
 * Per call, the calls it follows in program order or by `_after`, and why: what the executor
 * asks when the call is ready, since such an order is not only timing (a call does not start
 * after a call it follows failed unhandled). Kept apart from the graph's edges: an edge already
 * there (a data edge between the same calls) is not made twice, but the gate still holds.
 *
 * Linked lists in flat arrays (a head per call, a next per entry), so entries can be added in
 * any order (a forward `_after` is resolved at the end) and a plan without any costs nothing.
 */

/** The call's `_after` names the other call. */
export const GATE_AFTER = 0;
/** The call is an effect: it waits for every earlier call. */
export const GATE_EFFECT = 1;
/** The other call is an effect: every later call waits for it. */
export const GATE_BEHIND_EFFECT = 2;

export type GateKind = typeof GATE_AFTER | typeof GATE_EFFECT | typeof GATE_BEHIND_EFFECT;

const NONE = -1;

export class OrderGates {
  readonly #head: number[] = [];
  readonly #tail: number[] = [];
  readonly #other: number[] = [];
  readonly #kind: GateKind[] = [];
  readonly #next: number[] = [];

  /**
   * How many gates there are: 0 for a plan without effects or `_after`. A field, not a getter:
   * the executor reads it for every call it makes ready.
   */
  size = 0;

  /** Call `call` follows call `other`, for `kind`'s reason. */
  add(call: number, other: number, kind: GateKind): void {
    const head = this.#head;
    while (head.length <= call) {
      head.push(NONE);
      this.#tail.push(NONE);
    }
    const e = this.size++;
    this.#other.push(other);
    this.#kind.push(kind);
    this.#next.push(NONE);
    const last = this.#tail[call]!;
    if (last === NONE) head[call] = e;
    else this.#next[last] = e;
    this.#tail[call] = e;
  }

  /** The first gate of `call`, or -1; then `next(e)` until -1. */
  first(call: number): number {
    return call < this.#head.length ? this.#head[call]! : NONE;
  }

  next(e: number): number {
    return this.#next[e]!;
  }

  /** The call gate `e` waits for. */
  other(e: number): number {
    return this.#other[e]!;
  }

  kind(e: number): GateKind {
    return this.#kind[e]!;
  }

  /** Why `call` follows `other` (its first gate on it), or -1 when it does not. */
  kindBetween(call: number, other: number): GateKind | -1 {
    for (let e = this.first(call); e !== NONE; e = this.next(e))
      if (this.other(e) === other) return this.kind(e);
    return NONE;
  }

  /** Every gate of `from`, added to this one (which must not hold them already). */
  addAll(from: OrderGates): void {
    const calls = from.#head.length;
    for (let call = 0; call < calls; call++)
      for (let e = from.first(call); e !== NONE; e = from.next(e))
        this.add(call, from.other(e), from.kind(e));
  }
}

/** The gates of a plan that has none: shared, never added to. */
export const NO_GATES: OrderGates = new OrderGates();

/**
 * `_after: ["id", ...]`: a call ordered after others without data between them. Checked like
 * references: every entry must be a call id (`_id`, or the index as a string when a call has
 * none), said once, and not the call itself; an id may name a later call (as a forward
 * reference may), and is then resolved when every call is in. The order holds like effect
 * order: the call does not start after a call it names failed unhandled (see OrderGates).
 *
 * Ids are indexed only once a call uses `_after`: a plan without it makes no map.
 */
import { describeJson, type JsonObject } from '../../language/document.js';
import { type DiagnosticSink, error } from '../../language/diagnostics.js';
import { joinPointer } from '../../language/pointer.js';
import type { CallSpec } from '../read/index.js';
import type { OrderEdgeSink } from './effect-order.js';
import { AFTER_EDGE } from '../storage/index.js';
import { nearest } from '../nearest.js';
import { GATE_AFTER, type OrderGates } from './order-gates.js';

/** Most ids searched for a "did you mean". */
const MAX_CANDIDATES = 10_000;

const SHAPE_HINT =
  'write the ids of the calls to wait for: "_after": ["check"] (a call without _id is named by its index, "0")';

interface PendingAfter {
  readonly call: number;
  /** Its place in the call's `_after`. */
  readonly entry: number;
  readonly id: string;
}

/** The `_after` key of a call as written, or undefined: own keys only, as readCall reads them. */
export function afterOf(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object') return undefined;
  const after = (raw as JsonObject)._after;
  return after !== undefined && Object.hasOwn(raw, '_after') ? after : undefined;
}

export class AfterOrder {
  /** Call ids to indices (the first call of an id), once some call has `_after`. */
  #ids: Map<string, number> | null = null;
  readonly #pending: PendingAfter[] = [];
  /** Calls with an `_after` id not resolved yet: they wait for the end. */
  readonly #waiting = new Set<number>();
  /** Per call with `_after`, its entries as written: which entry names a call, for cycles. */
  readonly #written = new Map<number, readonly unknown[]>();

  constructor(
    private readonly sink: OrderEdgeSink,
    private readonly gates: OrderGates,
    private readonly diagnostics: DiagnosticSink,
  ) {}

  /**
   * Call `spec` (the last of `calls`) was just bound; `after` is its `_after` as written,
   * undefined when it has none.
   */
  add(spec: CallSpec, calls: readonly CallSpec[], after: unknown): void {
    let ids = this.#ids;
    if (ids) noteId(ids, spec);
    if (after === undefined) return;
    if (!ids) {
      ids = this.#ids = new Map();
      for (const call of calls) noteId(ids, call);
    }
    const i = spec.index;
    const where = joinPointer(spec.pointer, '_after');
    if (!Array.isArray(after)) {
      this.diagnostics.push(
        error('E_AFTER', where, `_after must be an array of call ids, not ${describeJson(after)}`, {
          call: spec.id,
          hint: SHAPE_HINT,
        }),
      );
      return;
    }
    this.#written.set(i, after);
    const seen = new Set<string>();
    for (let k = 0; k < after.length; k++) {
      const id: unknown = after[k];
      const at = joinPointer(where, k);
      if (typeof id !== 'string' || id === '') {
        this.diagnostics.push(
          error(
            'E_AFTER',
            at,
            `an _after entry must be a call id (a non-empty string), not ${describeJson(id)}`,
            {
              call: spec.id,
              hint: SHAPE_HINT,
            },
          ),
        );
        continue;
      }
      if (seen.has(id)) {
        this.diagnostics.push(
          error('E_AFTER', at, `_after names "${id}" twice`, { call: spec.id, hint: 'remove the repeat' }),
        );
        continue;
      }
      seen.add(id);
      const j = ids.get(id);
      if (j === i) {
        this.diagnostics.push(
          error(
            'E_CYCLE',
            at,
            `dependency cycle: ${spec.id} -> ${spec.id} (call ${spec.id} is _after itself)`,
            {
              call: spec.id,
              hint: 'remove it: a call cannot come after itself',
            },
          ),
        );
      } else if (j === undefined) {
        this.#pending.push({ call: i, entry: k, id });
        this.#waiting.add(i);
      } else this.#link(i, j);
    }
  }

  /** True when call i names a call not seen yet: it waits for the end of the plan. */
  waitsForLater(i: number): boolean {
    return this.#waiting.size > 0 && this.#waiting.has(i);
  }

  /** Resolves the ids that named later calls; reports those that name none. */
  finish(calls: readonly CallSpec[]): void {
    const ids = this.#ids;
    if (!ids || this.#pending.length === 0) return;
    for (const { call, entry, id } of this.#pending) {
      const j = ids.get(id);
      if (j !== undefined) {
        // Late: the call's dependencies may hold this pair already (a forward reference).
        if (!calls[call]!.dependencies.some((d) => d.from === j)) this.sink.addOrderEdge(call, j, AFTER_EDGE);
        this.gates.add(call, j, GATE_AFTER);
        continue;
      }
      const spec = calls[call]!;
      const near =
        this.diagnostics.full || ids.size > MAX_CANDIDATES
          ? undefined
          : nearest(id, ids.keys(), this.diagnostics.hints);
      this.diagnostics.push(
        error(
          'E_AFTER',
          joinPointer(spec.pointer, '_after', entry),
          `_after names "${id}", which is no call's id`,
          {
            call: spec.id,
            hint: near ? `did you mean "${near}"?` : SHAPE_HINT,
          },
        ),
      );
    }
    this.#pending.length = 0;
    this.#waiting.clear();
  }

  /** Which entry of call `to`'s `_after` names `id` (for a cycle's position), or -1. */
  entryNaming(to: number, id: string): number {
    return this.#written.get(to)?.indexOf(id) ?? -1;
  }

  #link(i: number, j: number): void {
    this.sink.addOrderEdge(i, j, AFTER_EDGE);
    this.gates.add(i, j, GATE_AFTER);
  }
}

function noteId(ids: Map<string, number>, call: CallSpec): void {
  if (!ids.has(call.id)) ids.set(call.id, call.index);
}

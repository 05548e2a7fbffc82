/**
 * Effects follow program order: a call to a tool that has effects (tools/effects.ts) starts
 * only after every earlier call of the plan has ended, and every later call waits for it.
 * Data flow orders state; nothing else would order effects on the world (a history check and
 * the refund it is meant to precede have no data between them).
 *
 * Built as order edges, linear in the plan's size: only the last effect and where it stands are
 * kept. An effect depends on the last effect and on every call since; any other call depends
 * on the last effect. Each call is in one effect's range, so there are at most two edges per
 * call, and a plan without effects gets none (and pays one comparison per call). Calls out of
 * program order (`_independent`, or a tool marked `independent`) neither wait nor are waited for.
 */
import { type DiagnosticSink, error } from '../../language/diagnostics.js';
import { describeJson, type JsonObject } from '../../language/document.js';
import { joinPointer } from '../../language/pointer.js';
import type { CallSpec } from '../read/index.js';
import { EFFECT_EDGE } from '../storage/index.js';
import { GATE_BEHIND_EFFECT, GATE_EFFECT, type OrderGates } from './order-gates.js';

/** Where order edges go: the data flow's graph (compile), or a run's own wiring (see run/). */
export interface OrderEdgeSink {
  /** An edge `from` -> `call` of `code` (FlowColumns' EFFECT_EDGE or AFTER_EDGE), unless there is one. */
  addOrderEdge(call: number, from: number, code: number): boolean;
}

export class EffectOrder {
  #last = -1;
  /** Calls out of program order: left out of an effect's range. */
  readonly #outside = new Set<number>();

  constructor(
    private readonly sink: OrderEdgeSink,
    private readonly gates: OrderGates,
  ) {}

  /** The last call that has effects so far, or -1. */
  get lastEffect(): number {
    return this.#last;
  }

  /**
   * Orders call `i`, the next in array order.
   * @param effect whether it has effects (and follows program order).
   * @param outside whether it is out of program order (`_independent`, an `independent` tool).
   */
  add(i: number, effect: boolean, outside: boolean): void {
    if (outside) {
      this.#outside.add(i);
      return;
    }
    const last = this.#last;
    if (effect) {
      if (last >= 0) this.#follow(i, last, GATE_EFFECT);
      const outsiders = this.#outside.size > 0;
      for (let k = last + 1; k < i; k++)
        if (!outsiders || !this.#outside.has(k)) this.#follow(i, k, GATE_EFFECT);
      this.#last = i;
    } else if (last >= 0) this.#follow(i, last, GATE_BEHIND_EFFECT);
  }

  #follow(i: number, from: number, kind: typeof GATE_EFFECT | typeof GATE_BEHIND_EFFECT): void {
    this.sink.addOrderEdge(i, from, EFFECT_EDGE);
    this.gates.add(i, from, kind);
  }
}

/**
 * Whether the call opts out of program order with `"_independent": true`; anything but a
 * boolean there is E_SHAPE. Own keys only, as readCall reads them.
 */
export function optsOut(raw: unknown, spec: CallSpec, diagnostics: DiagnosticSink): boolean {
  if (raw === null || typeof raw !== 'object') return false;
  const value = (raw as JsonObject)._independent;
  if (value === undefined || !Object.hasOwn(raw, '_independent')) return false;
  if (typeof value === 'boolean') return value;
  diagnostics.push(
    error(
      'E_SHAPE',
      joinPointer(spec.pointer, '_independent'),
      `_independent must be true or false, not ${describeJson(value)}`,
      {
        call: spec.id,
        hint: '"_independent": true takes an effect out of program order; leave it out otherwise',
      },
    ),
  );
  return false;
}

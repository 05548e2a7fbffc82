/** Checks of the whole graph: cycles named whole, and writers that overwrite each other. */
import { error, type DiagnosticSink, warning } from '../../language/diagnostics.js';
import { joinPointer } from '../../language/pointer.js';
import { findCycles, GATE_EFFECT } from '../order/index.js';
import { type OverlappingWrite, ExclusiveBranches } from '../bind/index.js';
import type { CallSpec } from '../read/index.js';

/** What the cycle report asks of program order, to say why each of its hops is there. */
export interface ProgramOrderWords {
  /** Which entry of call `to`'s `_after` names call `from`, or -1. */
  afterEntry(to: number, from: number): number;
  /** Why call `to` follows call `from` in program order (an OrderGates kind), or -1. */
  gateKind(to: number, from: number): number;
}

export function reportCycles(
  calls: readonly CallSpec[],
  order: readonly number[],
  pending: DiagnosticSink,
  programOrder: ProgramOrderWords,
): void {
  const placed = new Uint8Array(calls.length);
  for (const v of order) placed[v] = 1;
  const remaining: number[] = [];
  for (let i = 0; i < calls.length; i++) if (!placed[i]) remaining.push(i);
  for (const cycle of findCycles(remaining, calls)) {
    const names = cycle.map((i) => calls[i]!.id).join(' -> ');
    const ordered = hasProgramOrderHop(cycle, calls);
    const { pointer, offset, detail, hint } = ordered
      ? describeHops(cycle, calls, programOrder)
      : describeForwardRead(cycle, calls);
    pending.push(
      error('E_CYCLE', pointer, `dependency cycle: ${names}${detail}`, {
        call: calls[cycle[0]!]!.id,
        ...(offset !== undefined && { offset }),
        hint,
      }),
    );
  }
}

interface CycleSpot {
  readonly pointer: string;
  readonly offset?: number;
  readonly detail: string;
  readonly hint: string;
}

const DATA_HINT =
  'a call cannot wait for a value that only a call waiting on it produces; read a value written earlier, or split the step';
const AFTER_HINT = 'drop one of the _after entries on the cycle';
const EFFECT_HINT =
  'an effect runs after every call before it in the plan: put the call that reads its result after it, or mark the effect "_independent": true';

/** A cycle of data flow alone: only a forward reference can close it, so it is pointed at. */
function describeForwardRead(cycle: readonly number[], calls: readonly CallSpec[]): CycleSpot {
  for (let k = 0; k + 1 < cycle.length; k++) {
    const from = cycle[k]!;
    const to = cycle[k + 1]!;
    const read = calls[to]!.reads.find((r) => r.kind === 'later' && r.writers.includes(from));
    if (read) {
      return {
        pointer: calls[to]!.pointer + read.at,
        offset: read.ref.start,
        detail: ` (call ${calls[to]!.id} reads ${read.ref.text}, which call ${calls[from]!.id} writes later)`,
        hint: DATA_HINT,
      };
    }
  }
  return { pointer: calls[cycle[0]!]!.pointer, detail: '', hint: DATA_HINT };
}

function hasProgramOrderHop(cycle: readonly number[], calls: readonly CallSpec[]): boolean {
  for (let k = 0; k + 1 < cycle.length; k++) {
    const from = cycle[k]!;
    if (calls[cycle[k + 1]!]!.dependencies.some((d) => d.from === from && d.reason !== undefined))
      return true;
  }
  return false;
}

/**
 * A cycle through program order: every hop with its reason, pointed at the first `_after`
 * entry on it (else the first forward reference, else the first call).
 */
function describeHops(
  cycle: readonly number[],
  calls: readonly CallSpec[],
  words: ProgramOrderWords,
): CycleSpot {
  const reasons: string[] = [];
  let spot: { pointer: string; offset?: number } | undefined;
  let after: string | undefined;
  let viaAfter = false;
  let effect = false;
  for (let k = 0; k + 1 < cycle.length; k++) {
    const from = calls[cycle[k]!]!;
    const to = calls[cycle[k + 1]!]!;
    const d = to.dependencies.find((dep) => dep.from === from.index)!;
    if (d.reason === 'after') {
      viaAfter = true;
      reasons.push(`call ${to.id} is _after ${from.id}`);
      const entry = words.afterEntry(to.index, from.index);
      if (after === undefined && entry >= 0) after = joinPointer(to.pointer, '_after', entry);
    } else if (d.reason === 'effect') {
      effect = true;
      reasons.push(
        words.gateKind(to.index, from.index) === GATE_EFFECT
          ? `call ${to.id} (${to.tool ?? '?'}) is an effect: it waits for every earlier call`
          : `call ${from.id} (${from.tool ?? '?'}) is an effect: every later call waits for it`,
      );
    } else if (d.kind === 'data') {
      const read = to.reads.find((r) => r.writers.includes(from.index));
      const later = read?.kind === 'later';
      reasons.push(
        `call ${to.id} reads ${read?.ref.text ?? d.path}, which call ${from.id} writes${later ? ' later' : ''}`,
      );
      if (spot === undefined && read && later)
        spot = { pointer: to.pointer + read.at, offset: read.ref.start };
    } else reasons.push(`call ${to.id} writes ${d.path} after call ${from.id}`);
  }
  const where = after !== undefined ? { pointer: after } : (spot ?? { pointer: calls[cycle[0]!]!.pointer });
  const hint = [...(viaAfter ? [AFTER_HINT] : []), ...(effect ? [EFFECT_HINT] : [])].join('; or ');
  return { ...where, detail: ` (${reasons.join('; ')})`, hint };
}

export function reportMultipleWriters(
  calls: readonly CallSpec[],
  order: readonly number[],
  writes: readonly OverlappingWrite[],
  pending: DiagnosticSink,
): void {
  const branches = new ExclusiveBranches(calls, order);
  const byLater = new Map<number, OverlappingWrite[]>();
  for (const w of writes) {
    if (branches.exclusive(w.earlier, w.later)) continue;
    const list = byLater.get(w.later);
    if (list) list.push(w);
    else byLater.set(w.later, [w]);
  }
  for (const [later, list] of byLater) {
    const call = calls[later]!;
    // w.path is this call's write; name the earlier call's own output path beside it.
    const others = list
      .map((w) => {
        const earlier = calls[w.earlier]!;
        return `${w.path} overlaps call ${earlier.id} (${earlier.tool ?? '?'}), which writes ${earlier.outputPath?.text ?? w.path}`;
      })
      .join('; ');
    pending.push(
      warning(
        'W_MULTIPLE_WRITERS',
        joinPointer(call.pointer, '_outputPath'),
        `this call overwrites what an earlier call wrote: ${others}`,
        {
          call: call.id,
          hint: 'array order decides and the last write wins; give each result its own path if both are needed',
        },
      ),
    );
  }
}

/** Checks of the whole graph: cycles named whole, and writers that overwrite each other. */
import { error, type DiagnosticSink, warning } from '../language/diagnostics.js';
import { joinPointer } from '../language/pointer.js';
import { findCycles } from './cycles.js';
import type { OverlappingWrite } from './data-flow.js';
import { ExclusiveBranches } from './exclusive-branches.js';
import type { CallSpec } from './call-spec.js';

export function reportCycles(
  calls: readonly CallSpec[],
  order: readonly number[],
  pending: DiagnosticSink,
): void {
  const placed = new Uint8Array(calls.length);
  for (const v of order) placed[v] = 1;
  const remaining: number[] = [];
  for (let i = 0; i < calls.length; i++) if (!placed[i]) remaining.push(i);
  for (const cycle of findCycles(remaining, calls)) {
    const names = cycle.map((i) => calls[i]!.id).join(' -> ');
    // Only a forward reference can close a cycle: point at it.
    let pointer = calls[cycle[0]!]!.pointer;
    let offset: number | undefined;
    let detail = '';
    for (let k = 0; k + 1 < cycle.length; k++) {
      const from = cycle[k]!;
      const to = cycle[k + 1]!;
      const read = calls[to]!.reads.find((r) => r.kind === 'later' && r.writers.includes(from));
      if (read) {
        pointer = calls[to]!.pointer + read.at;
        offset = read.ref.start;
        detail = ` (call ${calls[to]!.id} reads ${read.ref.text}, which call ${calls[from]!.id} writes later)`;
        break;
      }
    }
    pending.push(
      error('E_CYCLE', pointer, `dependency cycle: ${names}${detail}`, {
        call: calls[cycle[0]!]!.id,
        ...(offset !== undefined && { offset }),
        hint: 'a call cannot wait for a value that only a call waiting on it produces; read a value written earlier, or split the step',
      }),
    );
  }
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

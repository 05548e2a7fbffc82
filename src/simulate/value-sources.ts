/**
 * The calls a read's value can come from. Compile binds a read to the last writers of its path
 * only (earlier writers are chained to them by write-after-write edges); in a dry run the last
 * writer may be skipped, and then an earlier one's value is what the read sees. So the sources
 * are the bound writers, and, behind any writer that may not have written, the writers of an
 * overlapping path it was ordered after. Iterative, and it stops behind a writer that surely
 * wrote, so a path written by a long chain of calls costs one step per read.
 */
import { CallSpec } from '../compile/read/index.js';
import type { CompiledCall, CompiledPlan } from '../compile/types.js';
import { type Path, pathsOverlap } from '../language/paths.js';
import type { Reference } from '../language/reference.js';

/** The writers compile bound a reference to (empty for input, initial state and schema reads). */
export function writersOf(call: CompiledCall, ref: Reference): readonly number[] {
  // A call of this package's compile answers from its columns, without making its reads.
  if (call instanceof CallSpec) return call.writersOf(ref);
  for (const read of call.reads) if (read.ref === ref) return read.writers;
  return [];
}

/**
 * Visits the possible sources of a read of `path` bound to `writers`, latest first along each
 * chain. `stop(w)` true means w surely wrote: nothing behind it is visited.
 */
export function forEachSource(
  plan: CompiledPlan,
  writers: readonly number[],
  path: Path,
  stop: (w: number) => boolean,
  visit: (w: number) => void,
): void {
  if (writers.length === 0) return;
  // The common case, one writer that surely wrote: nothing to allocate.
  if (writers.length === 1) {
    visit(writers[0]!);
    if (stop(writers[0]!)) return;
  }
  const pending = [...writers];
  const seen = new Set<number>(pending);
  let first = writers.length === 1;
  while (pending.length > 0) {
    const w = pending.pop()!;
    if (!first) {
      visit(w);
      if (stop(w)) continue;
    }
    first = false;
    for (const d of plan.calls[w]!.dependencies) {
      // Write after write only: an edge of program order says nothing of who wrote what.
      if (d.kind !== 'order' || d.reason !== undefined || seen.has(d.from)) continue;
      if (!writesOverlapping(plan.calls[d.from]!, path)) continue;
      seen.add(d.from);
      pending.push(d.from);
    }
  }
}

function writesOverlapping(call: CompiledCall, path: Path): boolean {
  const output = call.outputPath;
  return output !== null && output.paths.some((p) => pathsOverlap(p, path));
}

/**
 * What an edge of the picture carries. The compiler keeps one dependency per pair of calls
 * (the first path that created it); a call that reads two paths of the same writer still
 * depends on it once, so a data edge's label is every path the reader takes from that writer.
 * An edge of program order (an effect's, or `_after`) carries no path: its label says why.
 */
import type { CompiledCall, Dependency } from '../compile/types.js';

/** What an edge of program order says instead of a path (see OrderReason). */
const REASON_LABELS = { effect: 'effect order', after: '_after' } as const;

/**
 * The state paths (as written) that dependency `d` of `call` stands for, in reading order;
 * none for an edge of program order.
 */
export function edgePaths(call: CompiledCall, d: Dependency): string[] {
  if (d.reason !== undefined) return [];
  if (d.kind !== 'data') return [d.path];
  const paths: string[] = [];
  for (const read of call.reads) {
    if (read.writers.includes(d.from) && !paths.includes(read.ref.text)) paths.push(read.ref.text);
  }
  return paths.length > 0 ? paths : [d.path];
}

/** The label of an edge: its paths, comma-separated; `effect order` or `_after` for program order. */
export function edgeLabel(call: CompiledCall, d: Dependency): string {
  if (d.reason !== undefined) return REASON_LABELS[d.reason];
  return edgePaths(call, d).join(', ');
}

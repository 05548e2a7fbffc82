/**
 * What an edge of the picture carries. The compiler keeps one dependency per pair of calls
 * (the first path that created it); a call that reads two paths of the same writer still
 * depends on it once, so a data edge's label is every path the reader takes from that writer.
 */
import type { CompiledCall, Dependency } from '../compile/types.js';

/** The state paths (as written) that dependency `d` of `call` stands for, in reading order. */
export function edgePaths(call: CompiledCall, d: Dependency): string[] {
  if (d.kind !== 'data') return [d.path];
  const paths: string[] = [];
  for (const read of call.reads) {
    if (read.writers.includes(d.from) && !paths.includes(read.ref.text)) paths.push(read.ref.text);
  }
  return paths.length > 0 ? paths : [d.path];
}

/** The label of an edge: its paths, comma-separated. */
export function edgeLabel(call: CompiledCall, d: Dependency): string {
  return edgePaths(call, d).join(', ');
}

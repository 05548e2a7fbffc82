/**
 * Naming cycles. Kahn's algorithm leaves behind the calls on or after a cycle; Tarjan's
 * algorithm (iterative) splits those into strongly connected components, and a breadth-first
 * search inside each finds one cycle to name whole: `a -> b -> c -> a`.
 */
import type { HasDependencies } from './order.js';

/** Every cycle among `remaining`, one per strongly connected component, in data-flow direction. */
export function findCycles(remaining: readonly number[], calls: readonly HasDependencies[]): number[][] {
  const inRest = new Set(remaining);
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  // Edges are followed backwards (call -> what it depends on); a component is the same either way.
  for (const start of remaining) {
    if (index.has(start)) continue;
    const work: { v: number; k: number }[] = [{ v: start, k: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const deps = calls[frame.v]!.dependencies;
      if (frame.k < deps.length) {
        const w = deps[frame.k++]!.from;
        if (!inRest.has(w)) continue;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, k: 0 });
        } else if (onStack.has(w)) {
          low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(frame.v)!));
      if (low.get(frame.v) === index.get(frame.v)) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.v);
        const selfLoop = component.length === 1 && calls[w]!.dependencies.some((d) => d.from === w);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((c) => cycleThrough(c, calls)).sort((a, b) => a[0]! - b[0]!);
}

/** One cycle inside a component, starting and ending at its first call in array order. */
function cycleThrough(component: number[], calls: readonly HasDependencies[]): number[] {
  const members = new Set(component);
  const start = Math.min(...component);
  // Breadth-first search over dependencies (backwards) from start until start is reached again.
  const previous = new Map<number, number>();
  const queue: number[] = [start];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head]!;
    for (const d of calls[v]!.dependencies) {
      const w = d.from;
      if (!members.has(w)) continue;
      if (w === start) {
        // v depends on start, and the chain v -> previous(v) -> … -> start walks the data flow
        // forwards: start -> v -> … -> start.
        const chain = [v];
        for (let u = v; u !== start; u = previous.get(u)!) chain.push(previous.get(u)!);
        return [start, ...chain];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

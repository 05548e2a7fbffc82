/**
 * The dependency levels a gold sample's own references imply, from its raw row alone: NESTFUL's
 * `$label...$` anywhere in an argument (embedded ones too) depends on the call with that label;
 * NesTools' `API_call_k` on the call whose `responses` list it. A call's level is 0 without
 * dependencies, else 1 + the highest level among them.
 */
import type { RawRecord } from './corpora.js';

/** Every string inside an argument value, found with an explicit stack. */
function stringsIn(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') stack.push(...Object.values(v));
  }
  return out;
}

/** For each raw call, the indices of the calls it reads from. */
export function rawDependencies(format: 'nestful' | 'nestools', calls: readonly RawRecord[]): number[][] {
  const producer = new Map<string, number>();
  calls.forEach((call, i) => {
    if (format === 'nestful') {
      if (typeof call.label === 'string') producer.set(call.label.replace(/^\$/, ''), i);
    } else {
      for (const name of (call.responses as string[] | undefined) ?? []) producer.set(name, i);
    }
  });
  const pattern = format === 'nestful' ? /\$([A-Za-z0-9_]+)(?=[.$[])/g : /API_call_[0-9]+/g;
  return calls.map((call, i) => {
    const from = new Set<number>();
    for (const text of stringsIn(call.arguments ?? call.parameters)) {
      for (const match of text.matchAll(pattern)) {
        const p = producer.get(format === 'nestful' ? match[1]! : match[0]);
        if (p !== undefined && p !== i) from.add(p);
      }
    }
    return [...from].sort((a, b) => a - b);
  });
}

/** Levels from dependency lists (an acyclic graph; any order of the calls). */
export function levelsOf(dependencies: readonly (readonly number[])[]): number[] {
  const levels = new Array<number>(dependencies.length).fill(-1);
  // Gold plans are short: settle by passes until every call has its level.
  for (let pass = 0; pass <= dependencies.length && levels.includes(-1); pass++) {
    dependencies.forEach((from, i) => {
      if (levels[i] !== -1 || from.some((f) => levels[f] === -1)) return;
      levels[i] = from.length === 0 ? 0 : 1 + Math.max(...from.map((f) => levels[f]!));
    });
  }
  return levels;
}

/** How many calls are at each level, and the widest level's size. */
export function widest(levels: readonly number[]): number {
  const count = new Map<number, number>();
  for (const l of levels) count.set(l, (count.get(l) ?? 0) + 1);
  return Math.max(0, ...count.values());
}

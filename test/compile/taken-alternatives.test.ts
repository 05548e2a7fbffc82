/**
 * TakenAlternatives answers what a scan of the alternatives with pathsOverlap answers, whether
 * it scans (a few alternatives) or looks up its trie (many): prefixes either way, duplicates,
 * index 0 against key "0", and the other root.
 */
import { describe, expect, it } from 'vitest';
import { type Path, type PathSegment, pathsOverlap } from '../../src/language/paths.js';
import { TakenAlternatives } from '../../src/compile/bind/taken-alternatives.js';
import type { OutputPath } from '../../src/compile/types.js';

function scan(paths: readonly Path[], path: Path): number {
  const taken = paths.flatMap((p, k) => (pathsOverlap(p, path) ? [k] : []));
  return taken.length === 1 ? taken[0]! : -1;
}

/** A small random path over few keys, so that prefixes and duplicates are common. */
function randomPath(random: () => number): Path {
  const keys: PathSegment[] = ['a', 'b', 0, '0', 1];
  const segments: PathSegment[] = [];
  const length = Math.floor(random() * 4);
  for (let i = 0; i < length; i++) segments.push(keys[Math.floor(random() * keys.length)]!);
  return { root: random() < 0.9 ? 'state' : 'input', segments };
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('TakenAlternatives', () => {
  it.each([3, 8, 9, 40])('matches a scan with pathsOverlap, %i alternatives', (count) => {
    const random = seeded(count);
    for (let round = 0; round < 50; round++) {
      const paths = Array.from({ length: count }, () => ({ ...randomPath(random), root: 'state' as const }));
      const output = { op: '||', paths, refs: [], text: '' } as unknown as OutputPath;
      const taken = new TakenAlternatives();
      for (let q = 0; q < 40; q++) {
        const path = randomPath(random);
        expect(taken.of(round, output, path)).toBe(scan(paths, path));
      }
    }
  });
});

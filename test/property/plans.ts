/**
 * Random valid plans for property tests, with an oracle computed here from SPEC 4 alone (not
 * from the compiler): which reads bind how, and which calls must come before which.
 */
import fc from 'fast-check';

type Segment = string;
type Path = readonly Segment[];

/** How a random call reads: the raw choices; `buildPlan` turns them into references. */
interface ReadChoice {
  readonly pick: number;
  readonly shape: 'same' | 'prefix' | 'extend' | 'wildcard' | 'initial';
  readonly extension: Segment;
  /** Join with a second read of the same kind into one expression. */
  readonly combine: null | '||' | '&&';
  readonly pick2: number;
  /** 0: the argument itself, 1: inside an object, 2: inside an array. */
  readonly nest: number;
  /** How to write each segment: .name, ["name"], and for digits also [n]. */
  readonly style: readonly number[];
}

interface CallChoice {
  readonly write: null | { readonly op: null | '||' | '&&'; readonly paths: readonly Path[] };
  readonly reads: readonly ReadChoice[];
  /** Also read a value that only a later call writes (a forward reference). */
  readonly forward: boolean;
}

const FIRST = ['a', 'b', 'c', 'init'];
const REST = ['x', 'y', '0', '1', 'k'];

const segmentPath: fc.Arbitrary<Path> = fc
  .tuple(fc.constantFrom(...FIRST), fc.array(fc.constantFrom(...REST), { maxLength: 2 }))
  .map(([first, rest]) => [first, ...rest]);

const readChoice: fc.Arbitrary<ReadChoice> = fc.record({
  pick: fc.nat(),
  shape: fc.constantFrom('same', 'same', 'prefix', 'extend', 'wildcard', 'initial'),
  extension: fc.constantFrom(...REST),
  combine: fc.constantFrom(null, null, '||', '&&'),
  pick2: fc.nat(),
  nest: fc.nat(2),
  style: fc.array(fc.nat(2), { minLength: 5, maxLength: 5 }),
});

const callChoice: fc.Arbitrary<CallChoice> = fc.record({
  write: fc.option(
    fc.record({
      op: fc.constantFrom(null, null, '||', '&&'),
      paths: fc.array(segmentPath, { minLength: 1, maxLength: 3 }),
    }),
    { freq: 4 },
  ),
  reads: fc.array(readChoice, { maxLength: 4 }),
  forward: fc.nat(5).map((n) => n === 0),
});

/** Choices for a plan of 1 to `maxCalls` calls. */
export function planChoices(maxCalls = 25): fc.Arbitrary<CallChoice[]> {
  return fc.array(callChoice, { minLength: 1, maxLength: maxCalls });
}

export const INITIAL_STATE = { init: { k: 1, arr: [1, 2], nested: { deep: true } } };
const INITIAL_PATHS: Path[] = [
  ['init'],
  ['init', 'k'],
  ['init', 'arr'],
  ['init', 'arr', '0'],
  ['init', 'nested', 'deep'],
];

/** A read in the oracle: the path it covers and how SPEC 4 binds it. */
export interface OracleRead {
  readonly path: Path;
  readonly kind: 'earlier' | 'initial' | 'later';
}

export interface BuiltPlan {
  readonly calls: Record<string, unknown>[];
  /** Reads of each call in the order the compiler meets them (argument order, left to right). */
  readonly reads: OracleRead[][];
  readonly writes: Path[][];
  /** Pairs [before, after] that SPEC 4 orders. */
  readonly constraints: [number, number][];
}

export function overlaps(a: Path, b: Path): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

function segmentText(segment: Segment, style: number): string {
  const digits = /^\d+$/.test(segment);
  if (style === 1) return `[${JSON.stringify(segment)}]`;
  if (digits && style === 2) return `[${segment}]`;
  return `.${segment}`;
}

function referenceText(path: Path, style: readonly number[], wildcard = false): string {
  let out = '†state';
  path.forEach((segment, k) => {
    out += segmentText(segment, style[k % style.length]!);
  });
  return wildcard ? `${out}[*].id` : out;
}

/** Turns choices into a plan that must compile, and the order SPEC 4 demands of it. */
export function buildPlan(choices: readonly CallChoice[]): BuiltPlan {
  const calls: Record<string, unknown>[] = [];
  const reads: OracleRead[][] = [];
  const writes: Path[][] = [];
  const written: Path[] = [];
  const forwardSources: { reader: number; key: string }[] = [];

  const resolveRead = (choice: ReadChoice, pick: number): { path: Path; text: string } => {
    const useInitial = choice.shape === 'initial' || written.length === 0;
    const base = useInitial ? INITIAL_PATHS[pick % INITIAL_PATHS.length]! : written[pick % written.length]!;
    let path: Path = base;
    let wildcard = false;
    if (!useInitial) {
      if (choice.shape === 'prefix' && base.length > 1) path = base.slice(0, -1);
      if (choice.shape === 'extend') path = [...base, choice.extension];
      if (choice.shape === 'wildcard') wildcard = true;
    }
    return { path, text: referenceText(path, choice.style, wildcard) };
  };

  // Per call: each argument's reads and how they combine, and whether it branches (`||` writes).
  const argumentReads: { op: null | '||' | '&&'; reads: OracleRead[] }[][] = [];
  const branching: boolean[] = [];

  choices.forEach((choice, i) => {
    const call: Record<string, unknown> = { _tool: `tool${i % 3}`, _id: `c${i}` };
    const callArguments: { op: null | '||' | '&&'; reads: OracleRead[] }[] = [];
    argumentReads.push(callArguments);
    const callReads: OracleRead[] = [];
    const bindKind = (path: Path): OracleRead['kind'] => {
      if (written.some((w) => overlaps(w, path))) return 'earlier';
      return 'initial';
    };
    choice.reads.forEach((read, k) => {
      const first = resolveRead(read, read.pick);
      const parts = [first];
      if (read.combine) parts.push(resolveRead(read, read.pick2));
      const text = parts.map((p) => p.text).join(read.combine === null ? '' : ` ${read.combine} `);
      const argument = parts.map((p) => ({ path: p.path, kind: bindKind(p.path) }));
      callReads.push(...argument);
      callArguments.push({ op: read.combine, reads: argument });
      call[`arg${k}`] = read.nest === 0 ? text : read.nest === 1 ? { inner: text, n: k } : [k, text];
    });
    if (choice.forward) {
      const key = `fwd${i}`;
      forwardSources.push({ reader: i, key });
      call.later = `†state.${key}`;
      callReads.push({ path: [key], kind: 'later' });
    }
    const callWrites: Path[] = [];
    branching.push(
      choice.write !== null && choice.write.paths.length > 1 && (choice.write.op ?? '||') === '||',
    );
    if (choice.write) {
      const op = choice.write.paths.length > 1 ? (choice.write.op ?? '||') : null;
      call._outputPath = choice.write.paths
        .map((p, k) => referenceText(p, [k % 3, (k + 1) % 3, (k + 2) % 3]))
        .join(op ? ` ${op} ` : '');
      callWrites.push(...choice.write.paths);
    }
    calls.push(call);
    reads.push(callReads);
    writes.push(callWrites);
    written.push(...callWrites);
  });
  for (const { reader, key } of forwardSources) {
    calls.push({ _tool: 'source', _id: `src${reader}`, _outputPath: `†state.${key}` });
    reads.push([]);
    writes.push([[key]]);
  }
  const guards = branchGuards(choices.length, argumentReads, writes, branching);
  const exclusive = (a: number, b: number): boolean => {
    const ga = guards[a];
    const gb = guards[b];
    if (!ga || !gb) return false;
    for (const [branch, alternative] of ga) {
      const other = gb.get(branch);
      if (other !== undefined && other !== alternative) return true;
    }
    return false;
  };

  // SPEC 4: read after write (to every earlier overlapping writer, or to the later writer of a
  // forward reference), write after write, and write after a read bound by (1) or (2).
  const constraints: [number, number][] = [];
  for (let i = 0; i < calls.length; i++) {
    for (let j = 0; j < i; j++) {
      const raw = reads[i]!.some((r) => r.kind === 'earlier' && writes[j]!.some((w) => overlaps(w, r.path)));
      const waw = writes[i]!.some((wi) => writes[j]!.some((wj) => overlaps(wi, wj)));
      const war = reads[j]!.some((r) => r.kind !== 'later' && writes[i]!.some((w) => overlaps(w, r.path)));
      // Calls that can never both run (different alternatives of one branch) need no order
      // between a write and an earlier read or write: one of the two does not happen.
      if (raw || ((war || waw) && !exclusive(j, i))) constraints.push([j, i]);
    }
  }
  forwardSources.forEach(({ reader }, k) => {
    constraints.push([choices.length + k, reader]);
  });
  return { calls, reads, writes, constraints };
}

/**
 * The rule for exclusive calls, stated independently of the compiler: a call needs an
 * alternative of a branching call (one that writes `a || b`) when an argument reads, alone or
 * joined with `&&`, a path that only that alternative wrote before it: its only earlier writer,
 * with nothing in the initial state there, and a writer that wrote over no earlier write or
 * initial value. What the writer needs, the reader needs too. An `a || b` argument needs what
 * each of its reads needs. Forward reads need nothing.
 */
function branchGuards(
  count: number,
  argumentReads: readonly { op: null | '||' | '&&'; reads: readonly OracleRead[] }[][],
  writes: readonly Path[][],
  branching: readonly boolean[],
): (Map<number, number> | null)[] {
  const guards: (Map<number, number> | null)[] = [];
  const clean: boolean[] = [];
  const needs = (i: number, read: OracleRead): Map<number, number> | null => {
    if (read.kind !== 'earlier' || initialAt(read.path)) return null;
    const writers: number[] = [];
    for (let j = 0; j < i; j++) if (writes[j]!.some((w) => overlaps(w, read.path))) writers.push(j);
    if (writers.length !== 1 || !clean[writers[0]!]) return null;
    const w = writers[0]!;
    const out = new Map<number, number>();
    if (branching[w]) {
      const taken = writes[w]!.flatMap((p, k) => (overlaps(p, read.path) ? [k] : []));
      if (taken.length === 1) out.set(w, taken[0]!);
    }
    for (const [b, k] of guards[w] ?? []) if (!out.has(b)) out.set(b, k);
    return out;
  };
  for (let i = 0; i < count; i++) {
    const mine = new Map<number, number>();
    const add = (b: number, k: number) => {
      if (!mine.has(b)) mine.set(b, k);
    };
    for (const argument of argumentReads[i]!) {
      if (argument.op === '||' && argument.reads.length > 1) {
        let common: Map<number, number> | null = null;
        for (const read of argument.reads) {
          const n = needs(i, read);
          if (n === null) {
            common = null;
            break;
          }
          if (common === null) common = new Map(n);
          else for (const [b, k] of common) if (n.get(b) !== k) common.delete(b);
        }
        for (const [b, k] of common ?? []) add(b, k);
        continue;
      }
      for (const read of argument.reads) for (const [b, k] of needs(i, read) ?? []) add(b, k);
    }
    guards.push(mine.size > 0 ? mine : null);
    let overwrote = false;
    for (let j = 0; j < i; j++)
      if (writes[j]!.some((wj) => writes[i]!.some((wi) => overlaps(wi, wj)))) overwrote = true;
    clean.push(!overwrote && !writes[i]!.some(initialAt));
  }
  return guards;
}

/** True when the initial state holds a value at the path. */
function initialAt(path: Path): boolean {
  let value: unknown = INITIAL_STATE;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return false;
    value = (value as Record<string, unknown>)[segment];
  }
  return value !== undefined;
}

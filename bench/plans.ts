/** Generated plans for benchmarks: the three shapes of bench/compile and bench/run. */

export type Shape = 'chain' | 'fanout' | 'random';
export const SHAPES: readonly Shape[] = ['chain', 'fanout', 'random'];

export interface GeneratedCall {
  _tool: string;
  [arg: string]: unknown;
}

/** A deterministic pseudo-random sequence (mulberry32), so every run sees the same plan. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * - chain: call i reads call i-1's output (critical path n).
 * - fanout: call 0 writes one value, every other call reads it (critical path 2).
 * - random: call i reads up to 3 random earlier outputs.
 */
export function generatePlan(shape: Shape, n: number, seed = 42): GeneratedCall[] {
  const random = seededRandom(seed);
  const calls: GeneratedCall[] = [];
  for (let i = 0; i < n; i++) {
    const call: GeneratedCall = { _tool: 'step', n: i, _outputPath: `†state.v${i}` };
    if (i > 0) {
      if (shape === 'chain') call.a = `†state.v${i - 1}`;
      else if (shape === 'fanout') call.a = '†state.v0';
      else {
        const names = ['a', 'b', 'c'];
        for (const name of names) call[name] = `†state.v${Math.floor(random() * i)}`;
      }
    }
    calls.push(call);
  }
  return calls;
}

/** The one tool every generated call uses. */
export const benchTools = [
  {
    name: 'step',
    description: 'A step of a generated plan.',
    inputSchema: {
      type: 'object',
      properties: { n: { type: 'integer', minimum: 0 }, a: {}, b: {}, c: {} },
      required: ['n'],
      additionalProperties: false,
    },
    outputSchema: { type: 'integer' },
  },
];

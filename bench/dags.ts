/**
 * Plans with known critical paths for bench/run's parallelism tables: every call runs the one
 * tool `sleep`, passes its number `n`, reads the outputs it depends on through top-level
 * arguments and writes `†state.v<n>`.
 */
import { type GeneratedCall, seededRandom } from './plans.js';

export interface Dag {
  readonly name: string;
  readonly calls: GeneratedCall[];
  /** Per call (by its `n`), how long it sleeps; every call sleeps the same when absent. */
  readonly latencies?: readonly number[];
}

function call(n: number, reads: readonly number[]): GeneratedCall {
  const c: GeneratedCall = { _tool: 'sleep', n };
  reads.forEach((from, k) => (c[`a${k}`] = `†state.v${from}`));
  c._outputPath = `†state.v${n}`;
  return c;
}

/** `count` independent chains of `length` calls each (critical path: `length`). */
export function chains(count: number, length: number): Dag {
  const calls: GeneratedCall[] = [];
  for (let c = 0; c < count; c++) {
    for (let i = 0; i < length; i++) {
      const n = calls.length;
      calls.push(call(n, i === 0 ? [] : [n - 1]));
    }
  }
  return { name: `${count} chains of ${length}`, calls };
}

/** One source, `width` calls reading it, one sink reading them all (critical path: 3). */
export function diamond(width: number): Dag {
  const middle = Array.from({ length: width }, (_, k) => k + 1);
  const calls = [call(0, []), ...middle.map((n) => call(n, [0])), call(width + 1, middle)];
  return { name: `diamond of width ${width}`, calls };
}

/**
 * `layers` layers of `width` calls; every call after the first layer reads one call of the
 * layer before it and up to two calls of any earlier layer (critical path: `layers`).
 */
export function layeredRandom(layers: number, width: number, seed = 7): Dag {
  const random = seededRandom(seed);
  const pick = (below: number) => Math.floor(random() * below);
  const calls: GeneratedCall[] = [];
  for (let layer = 0; layer < layers; layer++) {
    for (let k = 0; k < width; k++) {
      const n = calls.length;
      if (layer === 0) {
        calls.push(call(n, []));
        continue;
      }
      const first = layer * width;
      const reads = new Set([first - width + pick(width)]);
      const extra = pick(3);
      for (let e = 0; e < extra; e++) reads.add(pick(first));
      calls.push(call(n, [...reads]));
    }
  }
  return { name: `layered random, ${layers}x${width}`, calls };
}

/** The same DAG with seeded latencies, whole milliseconds from `minMs` to `maxMs` per call. */
export function unevenLatencies(dag: Dag, options: { minMs: number; maxMs: number; seed: number }): Dag {
  const random = seededRandom(options.seed);
  const span = options.maxMs - options.minMs + 1;
  const latencies = dag.calls.map(() => options.minMs + Math.floor(random() * span));
  return { name: `${dag.name}, uneven ${options.minMs}-${options.maxMs} ms`, calls: dag.calls, latencies };
}

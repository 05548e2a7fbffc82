/**
 * Plans of a chosen size and shape for the report's readability tests, with tools that really
 * run: a chain, a wide fan-out and fan-in, and blocks that branch with `||`, fail (handled and
 * not) and skip.
 */
import { compile } from '../../src/compile/index.js';
import type { CompiledPlan } from '../../src/compile/types.js';
import type { Tool } from '../../src/tools/index.js';

export const SHAPES = ['chain', 'wide', 'branching'] as const;
export type Shape = (typeof SHAPES)[number];

export const TOOLS: Tool[] = [
  { name: 'work', execute: async () => ({ ok: true }) },
  {
    name: 'fetch',
    // Its failures are an outcome the plans handle: they go to `err` (the last alternative).
    errorBranch: true,
    execute: async (args) => {
      if (args.fail === true) throw new Error('upstream service answered 503 Service Unavailable');
      return { rows: 3 };
    },
  },
  {
    name: 'broken',
    execute: () => {
      throw new Error('broken on purpose: the report step cannot write its file');
    },
  },
];

/** A plan of `size` calls of the given shape (its calls written as a model would write them). */
export function generatedPlan(shape: Shape, size: number): CompiledPlan {
  const calls = shape === 'chain' ? chain(size) : shape === 'wide' ? wide(size) : branching(size);
  const compiled = compile(calls, { tools: TOOLS });
  if (!compiled.plan) throw new Error(JSON.stringify(compiled.diagnostics));
  return compiled.plan;
}

function chain(size: number) {
  return Array.from({ length: size }, (_, i) => ({
    _id: `step${i}`,
    _tool: 'work',
    ...(i > 0 && { input: `†state.step${i - 1}.result` }),
    _outputPath: `†state.step${i}.result`,
  }));
}

/** One source, size - 2 readers of it, one call reading every reader's output. */
function wide(size: number) {
  const readers = Math.max(1, size - 2);
  const join: Record<string, string> = {};
  for (let i = 0; i < readers; i++) join[`part${i}`] = `†state.parts.p${i}`;
  return [
    { _id: 'source', _tool: 'work', _outputPath: '†state.source' },
    ...Array.from({ length: readers }, (_, i) => ({
      _id: `part${i}`,
      _tool: 'work',
      from: '†state.source',
      _outputPath: `†state.parts.p${i}`,
    })),
    { _id: 'combine', _tool: 'work', ...join },
  ].slice(0, size);
}

/**
 * Blocks of five in a binary tree (block k waits for block (k-1)/2's result): a fetch that
 * writes `ok || err` (every third one fails, so its error goes to `err`), a reader of each
 * alternative (one of them is skipped), a merge reading `u || x`, and a result call; block 2's
 * result call throws, so the blocks under it end upstream_failed.
 */
function branching(size: number) {
  const calls: object[] = [];
  for (let k = 0; calls.length < size; k++) {
    const parent = k > 0 ? Math.floor((k - 1) / 2) : -1;
    calls.push(
      {
        _id: `fetch${k}`,
        _tool: 'fetch',
        fail: k % 3 === 1,
        ...(parent >= 0 && { after: `†state.result${parent}` }),
        _outputPath: `†state.ok${k} || †state.err${k}`,
      },
      { _id: `use${k}`, _tool: 'work', rows: `†state.ok${k}`, _outputPath: `†state.use${k}` },
      { _id: `recover${k}`, _tool: 'work', error: `†state.err${k}`, _outputPath: `†state.fix${k}` },
      { _id: `merge${k}`, _tool: 'work', v: `†state.use${k} || †state.fix${k}`, _outputPath: `†state.m${k}` },
      {
        _id: `result${k}`,
        _tool: k === 2 ? 'broken' : 'work',
        m: `†state.m${k}`,
        _outputPath: `†state.result${k}`,
      },
    );
  }
  return calls.slice(0, size);
}

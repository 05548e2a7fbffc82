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

/** The shapes of the first-screen test: the three above plus layers of a diamond and long names. */
export const FIRST_SCREEN_SHAPES = ['chain', 'wide', 'branching', 'diamond', 'long-names'] as const;
export type FirstScreenShape = (typeof FIRST_SCREEN_SHAPES)[number];

/** Tools whose names are as long as a model's MCP tools' are. */
const LONG_TOOLS: Tool[] = [
  'github_search_repositories_by_topic',
  'slack_post_message_to_channel_thread',
  'summarize_document_with_citations',
].map((name) => ({ name, execute: async () => ({ ok: true }) }));

export const FIRST_SCREEN_TOOLS: Tool[] = [...TOOLS, ...LONG_TOOLS];

/** A plan of `size` calls of a first-screen shape. */
export function firstScreenPlan(shape: FirstScreenShape, size: number): CompiledPlan {
  if (shape !== 'diamond' && shape !== 'long-names') return generatedPlan(shape, size);
  const calls = shape === 'diamond' ? diamond(size) : longNames(size);
  const compiled = compile(calls, { tools: FIRST_SCREEN_TOOLS });
  if (!compiled.plan) throw new Error(JSON.stringify(compiled.diagnostics));
  return compiled.plan;
}

/**
 * Layers that widen and narrow again (1, 2, 4, 6, 6, 4, 2, 1, ...): each call reads the two
 * calls of the layer before it nearest its own position.
 */
function diamond(size: number) {
  const widths = [1, 2, 4, 6, 6, 4, 2, 1];
  const calls: object[] = [];
  let previous: string[] = [];
  for (let layer = 0; calls.length < size; layer++) {
    const width = Math.min(widths[layer % widths.length]!, size - calls.length);
    const current: string[] = [];
    for (let k = 0; k < width; k++) {
      const id = `l${layer}n${k}`;
      const args: Record<string, string> = {};
      const near = previous.length > 0 ? Math.floor((k * previous.length) / width) : -1;
      if (near >= 0) args.a = `†state.${previous[near]}`;
      if (near >= 0 && previous.length > 1) args.b = `†state.${previous[(near + 1) % previous.length]}`;
      calls.push({ _id: id, _tool: 'work', ...args, _outputPath: `†state.${id}` });
      current.push(id);
    }
    previous = current;
  }
  return calls;
}

/**
 * Long ids and tool names in layers of three: each layer's calls read the one before them at
 * the same position, and every third call branches with `||`.
 */
function longNames(size: number) {
  return Array.from({ length: size }, (_, i) => {
    const id = `fetch_customer_records_for_region_${i}`;
    const before = i >= 3 ? `†state.customer_records_by_region.region_${i - 3}` : undefined;
    const out = `†state.customer_records_by_region.region_${i}`;
    return {
      _id: id,
      _tool: LONG_TOOLS[i % 3]!.name,
      ...(before && { previous: before }),
      _outputPath: i % 3 === 2 ? `${out} || †state.customer_records_missing.region_${i}` : out,
    };
  });
}

/**
 * The compile-time attacks of the second hostile-input round ("a small input buys minutes"),
 * each with the baseline it was first measured against, where there is one: every analysis of
 * the compile should be linear or bounded in the size of the plan and its tool schemas.
 */
import { type Attack, count, scaled } from './hostile-attack.js';
import { compileOutcome } from './hostile-build.js';

const anyTool = { name: 't', execute: () => 1 };

/** `||` with `n` alternatives, each read by a call of its own. */
const alternatives: Attack = {
  name: 'or-alternatives',
  title: '`||` of N alternatives, each read',
  size: (scale) => `${count(scaled(16_000, scale))} alternatives`,
  prepare: async (build, scale) => {
    const n = scaled(16_000, scale);
    const names = Array.from({ length: n }, (_, i) => `†state.a${i}`);
    const text = JSON.stringify([
      { _tool: 't', _outputPath: names.join(' || ') },
      ...names.map((name) => ({ _tool: 't', v: name })),
    ]);
    const tools = new build.core.ToolRegistry([anyTool]);
    return async () => compileOutcome(build.core.compile(text, { tools }));
  },
};

/** The baseline of `or-alternatives`: N plain paths written and each read. */
const plainPaths: Attack = {
  name: 'or-alternatives-baseline',
  title: 'baseline: N plain paths, each read',
  size: (scale) => `${count(scaled(16_000, scale))} paths`,
  prepare: async (build, scale) => {
    const n = scaled(16_000, scale);
    const names = Array.from({ length: n }, (_, i) => `†state.a${i}`);
    const text = JSON.stringify([
      ...names.map((name) => ({ _tool: 't', _outputPath: name })),
      ...names.map((name) => ({ _tool: 't', v: name })),
    ]);
    const tools = new build.core.ToolRegistry([anyTool]);
    return async () => compileOutcome(build.core.compile(text, { tools }));
  },
};

/** One call reading N distinct state keys, after a call that writes `†state.a || †state.b`. */
function referencesAfter(branching: boolean): Attack {
  return {
    name: branching ? 'references-after-branch' : 'references-after-branch-baseline',
    title: branching
      ? 'one call of N references after a branching call'
      : 'baseline: the same after a plain call',
    size: (scale) => `${count(scaled(160_000, scale))} references`,
    prepare: async (build, scale) => {
      const n = scaled(160_000, scale);
      const state: Record<string, number> = {};
      for (let i = 0; i < n; i++) state[`k${i}`] = i;
      const text = JSON.stringify([
        { _tool: 't', _outputPath: branching ? '†state.a || †state.b' : '†state.a' },
        { _tool: 't', v: Array.from({ length: n }, (_, i) => `†state.k${i}`) },
      ]);
      const tools = new build.core.ToolRegistry([anyTool]);
      return async () => compileOutcome(build.core.compile(text, { tools, state }));
    },
  };
}

/**
 * The join pattern: one call branches into N alternatives, and N calls, each reading its own
 * alternative, all write one path (found after the list: each writer was compared with
 * every earlier one).
 */
const joinWriters: Attack = {
  name: 'join-writers',
  title: 'N calls on the alternatives of one branch, all writing one path',
  size: (scale) => `${count(scaled(16_000, scale))} writers`,
  prepare: async (build, scale) => {
    const n = scaled(16_000, scale);
    const names = Array.from({ length: n }, (_, i) => `†state.a${i}`);
    const text = JSON.stringify([
      { _tool: 't', _outputPath: names.join(' || ') },
      ...names.map((name) => ({ _tool: 't', v: name, _outputPath: '†state.joined' })),
    ]);
    const tools = new build.core.ToolRegistry([anyTool]);
    return async () => compileOutcome(build.core.compile(text, { tools }));
  },
};

/** A mistyped read among N state keys of 1,000 characters: "did you mean" compares it with each. */
const didYouMean: Attack = {
  name: 'did-you-mean',
  title: '"did you mean" among N keys of 1,000 characters',
  size: (scale) => `${count(scaled(2_000, scale))} keys`,
  prepare: async (build, scale) => {
    const n = scaled(2_000, scale);
    const state: Record<string, number> = {};
    for (let i = 0; i < n; i++) state[`${String(i).padStart(6, '0')}${'x'.repeat(994)}`] = i;
    const text = JSON.stringify([{ _tool: 't', v: `†state.${'y'.repeat(6)}${'x'.repeat(994)}` }]);
    const tools = new build.core.ToolRegistry([anyTool]);
    return async () => compileOutcome(build.core.compile(text, { tools, state }));
  },
};

/** A writer's output `enum` of N values read into an argument with the same `enum`. */
const enumAgainstEnum: Attack = {
  name: 'enum-vs-enum',
  title: "writer's `enum` against reader's `enum`",
  size: (scale) => `${count(scaled(50_000, scale))} values`,
  prepare: async (build, scale) => {
    const values = Array.from({ length: scaled(50_000, scale) }, (_, i) => `v${i}`);
    const tools = new build.core.ToolRegistry([
      { name: 'w', outputSchema: { type: 'string', enum: values }, execute: () => 'v0' },
      {
        name: 'r',
        inputSchema: { type: 'object', properties: { v: { type: 'string', enum: values } }, required: ['v'] },
        execute: () => 1,
      },
    ]);
    const text = JSON.stringify([
      { _tool: 'w', _outputPath: '†state.x' },
      { _tool: 'r', v: '†state.x' },
    ]);
    return async () => compileOutcome(build.core.compile(text, { tools }));
  },
};

/**
 * A tool set of N tools, each with one heavy pattern (about 1,500 compiled steps, under the
 * per-pattern cap of 3,000), given in process as an MCP server's tools would arrive: the tool set
 * is registered and a plan calling each tool once with a matching argument is compiled.
 */
const toolSetPatterns: Attack = {
  name: 'tool-set-patterns',
  title: 'N heavy schema patterns in a tool set (in process)',
  size: (scale) => `${count(scaled(300, scale))} patterns`,
  prepare: async (build, scale) => {
    const n = scaled(300, scale);
    const tools = Array.from({ length: n }, (_, i) => ({
      name: `t${i}`,
      inputSchema: {
        type: 'object',
        properties: { s: { type: 'string', pattern: `^k${i}(?:\\w+\\s?){0,300}$` } },
      },
      execute: () => 1,
    }));
    const text = JSON.stringify(tools.map((_, i) => ({ _tool: `t${i}`, s: `k${i}${'a'.repeat(299)}` })));
    return async () => {
      const registry = new build.core.ToolRegistry(tools);
      return compileOutcome(build.core.compile(text, { tools: registry }));
    };
  },
};

export const COMPILE_ATTACKS: readonly Attack[] = [
  alternatives,
  plainPaths,
  referencesAfter(true),
  referencesAfter(false),
  joinWriters,
  didYouMean,
  enumAgainstEnum,
  toolSetPatterns,
];

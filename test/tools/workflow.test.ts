/** Workflows: tools whose `plan` runs as a sub-plan (Tool.plan, Tool.output). */
import { describe, expect, it } from 'vitest';
import {
  compile,
  run,
  type RunEvent,
  type Tool,
  ToolDefinitionError,
  ToolRegistry,
} from '../../src/index.js';

const search: Tool = {
  name: 'search',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  outputSchema: {
    type: 'object',
    properties: { hits: { type: 'array', items: { type: 'string' } } },
    required: ['hits'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  execute: ({ q }) => ({ hits: [`${String(q)}-1`, `${String(q)}-2`] }),
};

const count: Tool = {
  name: 'count',
  inputSchema: { type: 'object', properties: { xs: { type: 'array' } }, required: ['xs'] },
  outputSchema: { type: 'number' },
  annotations: { readOnlyHint: true },
  execute: ({ xs }) => (xs as unknown[]).length,
};

const RESEARCH_PLAN = `[
  {"_tool": "search", "q": "†input.topic", "_outputPath": "†state.found"},
  {"_tool": "count", "xs": "†state.found.hits", "_outputPath": "†state.n"}
]`;

const research: Tool = {
  name: 'research',
  inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
  plan: RESEARCH_PLAN,
  output: { hits: '†state.found.hits', n: '†state.n', kind: 'research' },
};

function problemsOf(make: () => unknown): string[] {
  try {
    make();
  } catch (e) {
    if (e instanceof ToolDefinitionError) return [...e.problems];
    throw e;
  }
  throw new Error('expected a ToolDefinitionError');
}

describe('a workflow call', () => {
  it('runs its plan with the arguments as †input and returns the filled-in output template', async () => {
    const result = await run([{ _tool: 'research', topic: 'cats', _outputPath: '†state.r' }], {
      tools: [search, count, research],
    });
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ r: { hits: ['cats-1', 'cats-2'], n: 2, kind: 'research' } });
  });

  it('runs each call in a fresh state: nothing of the caller or an earlier call leaks in', async () => {
    const stamp: Tool = { name: 'stamp', execute: (args) => args.n };
    const probe: Tool = {
      name: 'probe',
      plan: [{ _tool: 'stamp', n: '†input.n', _outputPath: '†state.mine' }],
      // The whole final state of the sub-plan.
      output: { state: '†state' },
    };
    const result = await run(
      [
        { _tool: 'probe', n: 1, _outputPath: '†state.a' },
        { _tool: 'probe', n: 2, _after: ['0'], _outputPath: '†state.b' },
      ],
      { tools: [stamp, probe], state: { mark: 'caller' } },
    );
    expect(result.status).toBe('succeeded');
    expect(result.state).toEqual({ mark: 'caller', a: { state: { mine: 1 } }, b: { state: { mine: 2 } } });
  });

  it('a single reference output returns that value as it is', async () => {
    const one: Tool = { name: 'hits', plan: RESEARCH_PLAN, output: '†state.found.hits' };
    const result = await run([{ _tool: 'hits', topic: 'dogs', _outputPath: '†state.h' }], {
      tools: [search, count, one],
    });
    expect(result.state).toEqual({ h: ['dogs-1', 'dogs-2'] });
  });

  it('fails naming the workflow and the inner call that failed', async () => {
    const broken: Tool = {
      name: 'fetch',
      execute: () => {
        throw new Error('connection refused');
      },
    };
    const flow: Tool = {
      name: 'fetchAll',
      plan: [{ _id: 'get', _tool: 'fetch', _outputPath: '†state.page' }],
      output: '†state.page',
    };
    const result = await run([{ _id: 'outer', _tool: 'fetchAll', _outputPath: '†state.p' }], {
      tools: [broken, flow],
    });
    expect(result.status).toBe('failed');
    const message = result.calls[0]!.error!.message;
    expect(message).toContain("workflow 'fetchAll'");
    expect(message).toContain('"get"');
    expect(message).toContain('connection refused');
  });

  it('sends the events from inside with the id of the call that ran the workflow', async () => {
    const events: RunEvent[] = [];
    await run([{ _id: 'r1', _tool: 'research', topic: 'owls', _outputPath: '†state.r' }], {
      tools: [search, count, research],
      onEvent: (event) => events.push(event),
    });
    const inner = events.filter((e) => (e as { parentCall?: string }).parentCall === 'r1');
    expect(inner.map((e) => e.type)).toContain('call:start');
    expect(inner.some((e) => e.type === 'call:end' && e.tool === 'search')).toBe(true);
    // The run's own events carry no parent.
    expect(events.some((e) => e.type === 'call:end' && e.call === 'r1' && !('parentCall' in e))).toBe(true);
  });

  it('a workflow may call a workflow', async () => {
    const outer: Tool = {
      name: 'twice',
      plan: [
        { _tool: 'research', topic: '†input.a', _outputPath: '†state.first' },
        { _tool: 'research', topic: '†input.b', _outputPath: '†state.second' },
      ],
      output: ['†state.first.n', '†state.second.hits'],
    };
    const result = await run([{ _tool: 'twice', a: 'x', b: 'y', _outputPath: '†state.t' }], {
      tools: [outer, search, count, research],
    });
    expect(result.state).toEqual({ t: [2, ['y-1', 'y-2']] });
  });

  it('cancels its sub-plan when the run is cancelled', async () => {
    const controller = new AbortController();
    const hang: Tool = {
      name: 'hang',
      execute: (_args, { abortSignal }) =>
        new Promise((_resolve, reject) => {
          abortSignal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
          controller.abort();
        }),
    };
    const flow: Tool = {
      name: 'waits',
      plan: [{ _tool: 'hang', _outputPath: '†state.x' }],
      output: '†state.x',
    };
    const result = await run([{ _tool: 'waits', _outputPath: '†state.y' }], {
      tools: [hang, flow],
      signal: controller.signal,
    });
    expect(result.status).toBe('cancelled');
  });

  it('aborts the calls inside when its own time runs out, with the workflow call’s timeout as the reason', async () => {
    let reason: unknown;
    const hang: Tool = {
      name: 'hang',
      execute: (_args, { abortSignal }) =>
        new Promise((_resolve, reject) => {
          abortSignal.addEventListener(
            'abort',
            () => {
              reason = abortSignal.reason;
              reject(new Error('stopped'));
            },
            { once: true },
          );
        }),
    };
    const flow: Tool = {
      name: 'waits',
      timeoutMs: 20,
      plan: [{ _id: 'h', _tool: 'hang', _outputPath: '†state.x' }],
      output: '†state.x',
    };
    const result = await run([{ _id: 'w', _tool: 'waits', _outputPath: '†state.y' }], {
      tools: [hang, flow],
    });
    expect(result.status).toBe('failed');
    expect(result.calls[0]!.error).toMatchObject({ code: 'TIMEOUT' });
    // The call inside shares the workflow call's signal: it learns why, not only that, it stopped.
    expect(reason).toBeInstanceOf(Error);
    expect((reason as Error).name).toBe('ToolTimeoutError');
    expect(reason).toMatchObject({ call: 'w', tool: 'waits', timeoutMs: 20 });
  });
});

describe('a workflow call with a time limit', () => {
  it('lets more than ten calls inside listen to its signal without a leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const listen: Tool = {
        name: 'listen',
        execute: async (_args, { abortSignal }) => {
          abortSignal.addEventListener('abort', () => {});
          await new Promise((resolve) => setImmediate(resolve));
          return 1;
        },
      };
      const flow: Tool = {
        name: 'many',
        timeoutMs: 60_000,
        plan: Array.from({ length: 12 }, (_, k) => ({ _tool: 'listen', _outputPath: `†state.r${k}` })),
        output: '†state.r0',
      };
      const result = await run([{ _tool: 'many', _outputPath: '†state.y' }], { tools: [listen, flow] });
      expect(result.status).toBe('succeeded');
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('a workflow in a registry', () => {
  it('is compiled when the registry is built, its mistakes named with the workflow, line and column', () => {
    const bad: Tool = {
      name: 'summarize',
      plan: `[
  {"_tool": "search", "q": "†input.topic", "_outputPath": "†state.found"},
  {"_tool": "count", "xs": "†state.fonud.hits", "_outputPath": "†state.n"}
]`,
      output: '†state.n',
    };
    const problems = problemsOf(() => new ToolRegistry([search, count, bad]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^workflow 'summarize': its plan:3:29: E_UNRESOLVED /);
  });

  it('shifts positions by planOrigin, to the file the plan came from', () => {
    const bad: Tool = {
      name: 'summarize',
      plan: '[{"_tool": "nope"}]',
      output: '†state.n',
      planOrigin: { file: 'tools.json', line: 7, column: 15 },
    };
    const problems = problemsOf(() => new ToolRegistry([bad]));
    expect(problems[0]).toMatch(/^workflow 'summarize': tools\.json:7:\d+: E_UNKNOWN_TOOL /);
    expect(Number(/tools\.json:7:(\d+)/.exec(problems[0]!)![1])).toBeGreaterThan(15);
  });

  it('refuses an output that reads what its plan never writes', () => {
    const bad: Tool = { name: 'r', plan: RESEARCH_PLAN, output: { n: '†state.total' } };
    expect(problemsOf(() => new ToolRegistry([search, count, bad]))).toEqual([
      `workflow 'r': "output" reads †state.total, which no call of the plan writes`,
    ]);
    const closed: Tool = { name: 'r', plan: RESEARCH_PLAN, output: '†state.found.hitz' };
    expect(problemsOf(() => new ToolRegistry([search, count, closed]))[0]).toContain('†state.found.hitz');
  });

  it('types the plan against its inputSchema', () => {
    const bad: Tool = {
      name: 'r',
      inputSchema: { type: 'object', properties: { topic: { type: 'number' } }, required: ['topic'] },
      plan: RESEARCH_PLAN,
      output: '†state.n',
    };
    expect(problemsOf(() => new ToolRegistry([search, count, bad]))[0]).toMatch(/E_REF_TYPE/);
  });

  it('names the chain of a workflow that reaches itself', () => {
    const a: Tool = {
      name: 'research',
      plan: [{ _tool: 'summarize', _outputPath: '†state.s' }],
      output: '†state.s',
    };
    const b: Tool = {
      name: 'summarize',
      plan: [{ _tool: 'research', _outputPath: '†state.r' }],
      output: '†state.r',
    };
    const self: Tool = {
      name: 'loop',
      plan: [{ _tool: 'loop', _outputPath: '†state.r' }],
      output: '†state.r',
    };
    const problems = problemsOf(() => new ToolRegistry([a, b, self]));
    expect(problems.some((p) => p.includes('research → summarize → research'))).toBe(true);
    expect(problems.some((p) => p.includes('loop → loop'))).toBe(true);
  });

  it('refuses plan with execute, latent, or without output', () => {
    const problems = problemsOf(
      () =>
        new ToolRegistry([
          { name: 'a', plan: '[]', output: '†state.x', execute: () => 1 },
          { name: 'b', plan: '[]' },
          { name: 'c', output: '†state.x' },
        ]),
    );
    expect(problems).toEqual([
      `tool 'a': a workflow has "plan" instead of "execute": remove one of them`,
      `tool 'b': a workflow needs "output": a reference such as "†state.result", or a template of them`,
      `tool 'c': "output" belongs to a workflow: give the tool a "plan" too, or remove "output"`,
    ]);
  });

  it("feeds its output type to the caller's type flow", () => {
    const registry = new ToolRegistry([search, count, research]);
    const typo = compile(
      [
        { _tool: 'research', topic: 'cats', _outputPath: '†state.r' },
        { _tool: 'count', xs: '†state.r.hitz' },
      ],
      { tools: registry },
    );
    expect(typo.ok).toBe(false);
    expect(typo.diagnostics.map((d) => d.code)).toContain('E_UNRESOLVED');
    const wrongType = compile(
      [
        { _tool: 'research', topic: 'cats', _outputPath: '†state.r' },
        { _tool: 'count', xs: '†state.r.n' },
      ],
      { tools: registry },
    );
    expect(wrongType.diagnostics.map((d) => d.code)).toContain('E_REF_TYPE');
    const fine = compile(
      [
        { _tool: 'research', topic: 'cats', _outputPath: '†state.r' },
        { _tool: 'count', xs: '†state.r.hits' },
      ],
      { tools: registry },
    );
    expect(fine.ok).toBe(true);
  });

  it('checks a declared outputSchema against the derived output type', () => {
    const declared: Tool = { ...research, outputSchema: { type: 'string' } };
    expect(problemsOf(() => new ToolRegistry([search, count, declared]))[0]).toMatch(
      /^workflow 'research': its output .* can never fit its declared outputSchema/,
    );
  });

  it('is bound anew in a registry made from another registry’s tools', async () => {
    const first = new ToolRegistry([search, count, research]);
    const second = new ToolRegistry(first.tools());
    const result = await run([{ _tool: 'research', topic: 'z', _outputPath: '†state.r' }], { tools: second });
    expect(result.state).toEqual({ r: { hits: ['z-1', 'z-2'], n: 2, kind: 'research' } });
  });
});

describe('a workflow in a journal', () => {
  it("its plan and output are part of the tools' digest: a changed plan is a changed tool", async () => {
    const { runIdentity } = await import('../../src/run/journal/journal-digests.js');
    const identity = (flow: Tool) => {
      const tools = new ToolRegistry([search, count, flow]);
      const { plan } = compile([{ _tool: 'research', topic: 'x', _outputPath: '†state.r' }], { tools });
      return runIdentity({ mode: 'eager', plan: plan!, input: {}, state: {}, tools }).digests.tools;
    };
    // The same output type, another plan.
    const other: Tool = { ...research, plan: RESEARCH_PLAN.replace('"†input.topic"', '"fixed"') };
    expect(identity(research)).toBe(identity({ ...research }));
    expect(identity(research)).not.toBe(identity(other));
  });
});

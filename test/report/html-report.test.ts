import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import type { CompiledPlan } from '../../src/compile/types.js';
import { renderReport, STATUS_STYLES } from '../../src/report/index.js';
import { escapeHtml, jsonForScript } from '../../src/report/html/escape.js';
import { layoutGraph } from '../../src/report/html/layout.js';
import { runStatusOf } from '../../src/report/html/status.js';
import type { CallReport, CallStatus, RunResult } from '../../src/run/types.js';
import type { Simulation } from '../../src/simulate/types.js';

function compiled(calls: unknown[]): CompiledPlan {
  const result = compile(calls);
  if (!result.plan) throw new Error(JSON.stringify(result.diagnostics));
  return result.plan;
}

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();

/** A RunResult for `plan` with each call's status (and times in ms from the start, when it ran). */
function resultOf(
  plan: CompiledPlan,
  ends: Record<string, Partial<CallReport> & { status: CallStatus; at?: [number, number] }>,
): RunResult {
  const calls = plan.calls.map((call): CallReport => {
    const e = ends[call.id] ?? { status: 'succeeded', at: [0, 10] };
    const { at, ...rest } = e;
    return {
      id: call.id,
      tool: call.tool,
      branch: null,
      handled: false,
      attempts: at ? 1 : 0,
      startedAt: at ? iso(at[0]) : null,
      endedAt: at ? iso(at[1]) : null,
      error: null,
      ...rest,
    };
  });
  return { status: 'succeeded', state: {}, calls, diagnostics: [], startedAt: iso(0), endedAt: iso(100) };
}

/** The JSON the page's script reads. */
function pageData(html: string): { calls: Record<string, unknown>[] } {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no report-data');
  return JSON.parse(m[1]!) as { calls: Record<string, unknown>[] };
}

/** Node centers by call index, from the graph SVG's transforms. */
function nodeCenters(html: string): Map<number, { x: number; y: number }> {
  const out = new Map<number, { x: number; y: number }>();
  for (const m of html.matchAll(
    /<g class="n[^"]*" data-i="(\d+)" transform="translate\(([-\d.]+),([-\d.]+)\)">/g,
  ))
    out.set(Number(m[1]), { x: Number(m[2]), y: Number(m[3]) });
  return out;
}

const HOSTILE = '</script><img src=x onerror="alert(1)"><!--';

describe('renderReport: escaping', () => {
  const plan = compiled([
    { _id: HOSTILE, _tool: `t${HOSTILE}`, q: HOSTILE, _outputPath: '†state["</script><b>"]' },
    { _id: 'reader', _tool: 'r', v: '†state["</script><b>"]' },
  ]);
  const result = resultOf(plan, {
    [HOSTILE]: { status: 'succeeded', at: [0, 50], output: { html: HOSTILE }, args: { q: HOSTILE } },
    reader: { status: 'failed', at: [50, 60], error: { message: HOSTILE, code: '<x>' } },
  });
  const html = renderReport({ plan, result }, { title: `title ${HOSTILE}` });

  it('leaves no markup from plan data: no img, no extra script end, no comment', () => {
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain('<!--');
    expect(html).not.toContain('<b>');
    // Exactly the page's own two script elements end.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain(escapeHtml(HOSTILE));
  });

  it('embeds the data as JSON that reads back unchanged', () => {
    const data = pageData(html);
    expect(data.calls[0]!.id).toBe(HOSTILE);
    expect(data.calls[0]!.output).toBe(JSON.stringify({ html: HOSTILE }, null, 2));
    expect(data.calls[1]!.error).toContain(HOSTILE);
  });

  it('escapes HTML and script text', () => {
    expect(escapeHtml(`<a href='x'>&"`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&quot;');
    const json = jsonForScript({ s: '</script>\u2028<!--' });
    expect(json).not.toMatch(/[<\u2028]/);
    expect(JSON.parse(json)).toEqual({ s: '</script>\u2028<!--' });
  });

  it('allows only its own script and style, and no network', () => {
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });
});

describe('renderReport: status colors', () => {
  it('maps each ending to its drawing status', () => {
    const base = { id: 'a', tool: 't', branch: null, attempts: 1, startedAt: null, endedAt: null } as const;
    const of = (r: Partial<CallReport>) =>
      runStatusOf({ ...base, handled: false, error: null, status: 'failed', ...r });
    expect(of({ status: 'succeeded' })).toBe('succeeded');
    expect(of({ handled: true, error: { message: 'x' } })).toBe('handled');
    expect(of({ error: { message: 'timed out after 5 ms', code: 'TIMEOUT' } })).toBe('timed_out');
    expect(of({ error: { message: 'boom' } })).toBe('failed');
    for (const s of ['skipped', 'upstream_failed', 'cancelled', 'rejected'] as const)
      expect(of({ status: s })).toBe(s);
  });

  it('gives every run status its own fill, used by nodes, bars and the legend', () => {
    const run = [
      'succeeded',
      'handled',
      'failed',
      'timed_out',
      'upstream_failed',
      'skipped',
      'cancelled',
      'rejected',
    ] as const;
    expect(new Set(run.map((s) => STATUS_STYLES[s].fill)).size).toBe(run.length);
    const plan = compiled(run.map((s) => ({ _id: s, _tool: 't' })));
    const ends = Object.fromEntries(
      run.map((s) => [
        s,
        {
          status: (s === 'handled' || s === 'timed_out' ? 'failed' : s) as CallStatus,
          handled: s === 'handled',
          error: s === 'timed_out' ? { message: 't', code: 'TIMEOUT' } : null,
          at: [0, 10] as [number, number],
        },
      ]),
    );
    const html = renderReport({ plan, result: resultOf(plan, ends) });
    run.forEach((s, i) => {
      expect(html).toContain(`.s-${s}{--f:${STATUS_STYLES[s].fill};--s:${STATUS_STYLES[s].stroke}}`);
      expect(html).toMatch(new RegExp(`<g class="n s-${s}[^"]*" data-i="${i}"`));
      expect(html).toMatch(new RegExp(`<rect class="bar s-${s}[^"]*" data-i="${i}"`));
      expect(html).toContain(`<li data-status="${s}"><span class="sw s-${s}"></span>`);
    });
  });
});

describe('renderReport: layout', () => {
  // A diamond with a branch, and a chain that skips levels (an edge spanning two columns).
  const plan = compiled([
    { _id: 'a', _tool: 't', _outputPath: '†state.x || †state.y' },
    { _id: 'b', _tool: 't', v: '†state.x', _outputPath: '†state.b' },
    { _id: 'c', _tool: 't', v: '†state.y', _outputPath: '†state.c' },
    { _id: 'd', _tool: 't', v: '†state.b || †state.c', _outputPath: '†state.d' },
    { _id: 'e', _tool: 't', v: '†state.d', w: '†state.b' },
  ]);
  const edges = plan.calls.flatMap((c, to) => c.dependencies.map((d) => [d.from, to] as const));

  for (const layout of ['dagre', 'layered'] as const) {
    it(`${layout}: x increases along every edge, nodes do not overlap`, () => {
      const html = renderReport({ plan, result: resultOf(plan, {}) }, { layout, direction: 'LR' });
      const at = nodeCenters(html);
      expect(at.size).toBe(plan.calls.length);
      expect(edges.length).toBeGreaterThanOrEqual(5);
      for (const [from, to] of edges) expect(at.get(to)!.x).toBeGreaterThan(at.get(from)!.x);
      const l = layoutGraph(plan, {
        engine: layout,
        dagreLimit: 0,
        direction: 'LR',
        boxes: plan.calls.map(() => ({ w: 100, h: 40 })),
        labelSize: () => ({ w: 40, h: 14 }),
      });
      expect(l.engine).toBe(layout);
      for (const [i, a] of l.nodes.entries())
        for (const b of l.nodes.slice(i + 1))
          expect(Math.abs(a.x - b.x) >= (a.w + b.w) / 2 || Math.abs(a.y - b.y) >= (a.h + b.h) / 2).toBe(true);
      for (const e of l.edges) expect(e.points[e.points.length - 1]!.x).toBeGreaterThan(e.points[0]!.x);
    });
  }

  it('auto switches from dagre to the layered layout past dagreLimit', () => {
    const result = resultOf(plan, {});
    expect(renderReport({ plan, result })).toContain('laid out with dagre');
    expect(renderReport({ plan, result }, { dagreLimit: 3 })).toContain('columns by level');
  });

  it('labels edges with their state path and marks the alternative written', () => {
    const result = resultOf(plan, {
      a: { status: 'succeeded', branch: 1, at: [0, 5] },
      b: { status: 'skipped' },
    });
    const html = renderReport({ plan, result });
    expect(html).toContain('<text class="el"');
    expect(html).toContain('>†state.x</text>');
    expect(html).toContain(
      '<tspan class="alt">†state.x</tspan> || <tspan class="alt taken">†state.y</tspan>',
    );
    expect(html).toMatch(/<polygon class="shape"/);
    // The edge into the skipped call is drawn as not taken.
    expect(html).toMatch(/<path class="e data[^"]*untaken" data-from="0" data-to="1"/);
  });
});

describe('renderReport: program order', () => {
  it("draws an effect's order edge dashed, labelled with its reason", () => {
    const result = compile(
      [
        { _id: 'history', _tool: 'check' },
        { _id: 'refund', _tool: 'refund' },
      ],
      {
        tools: [
          { name: 'check', annotations: { readOnlyHint: true } },
          { name: 'refund', needsApproval: true },
        ],
      },
    );
    const plan = result.plan!;
    const html = renderReport({ plan, result: resultOf(plan, {}) });
    // `.e.order` is what the page's style dashes.
    expect(html).toMatch(/<path class="e order effect[^"]*" data-from="0" data-to="1"/);
    expect(html).toContain('>effect order</text>');
  });
});

describe('renderReport: timeline', () => {
  it('packs calls that overlap into separate lanes', () => {
    const plan = compiled([
      { _id: 'p', _tool: 't' },
      { _id: 'q', _tool: 't' },
      { _id: 'r', _tool: 't' },
    ]);
    const html = renderReport({
      plan,
      result: resultOf(plan, {
        p: { status: 'succeeded', at: [0, 50] },
        q: { status: 'succeeded', at: [10, 40] },
        r: { status: 'skipped' },
      }),
    });
    const bars = [...html.matchAll(/<rect class="bar [^"]*" data-i="(\d)" x="([\d.]+)" y="([\d.]+)"/g)];
    expect(bars.map((b) => b[1])).toEqual(['0', '1']);
    expect(bars[0]![3]).not.toBe(bars[1]![3]);
    expect(html).toContain('at most 2 ran at once');
    expect(html).toContain('never started: 1 skipped');
  });
});

describe('renderReport: dry run', () => {
  const plan = compiled([
    { _id: 'w', _tool: 'weather', _outputPath: '†state.sunny || †state.rain' },
    { _id: 'park', _tool: 'park', v: '†state.sunny', _outputPath: '†state.s' },
    { _id: 'movie', _tool: 'movie', v: '†state.rain', _outputPath: '†state.s' },
  ]);
  const scenario = (choice: number, skipped: string[]) => ({
    choices: { w: choice },
    run: ['w', 'park', 'movie'].filter((id) => !skipped.includes(id)),
    skipped,
    argumentErrors: [],
    varies: choice === 0 ? [] : ['w'],
  });
  const simulation: Simulation = {
    scenarios: [scenario(0, ['movie']), scenario(1, ['park'])],
    truncated: false,
    branchGroups: [['w']],
    criticalPath: ['w', 'park'],
    criticalPathWeight: 2,
    maxParallelism: 2,
    widestLevel: { level: 1, calls: ['park', 'movie'] },
    samples: { w: { source: 'schema', value: { t: 1 } }, park: { source: 'unknown', value: null } },
    workflows: {},
    forEach: {},
    diagnostics: [],
  };

  it('shows scenarios, the first one colored, and the critical path', () => {
    const html = renderReport({ plan, simulation });
    expect(html).toContain('data-sc="0"');
    expect(html).toContain('#1 w→1: 2 run, 1 skipped');
    expect(html).toMatch(/<g class="n s-skipped" data-i="2"/);
    expect(html).toMatch(/<g class="n s-runs cp" data-i="1"/);
    expect(html).toContain('Critical path (2 calls, weight 2): w → park');
    const data = pageData(html) as unknown as { kind: string; scenarios: { skipped: number[] }[] };
    expect(data.kind).toBe('simulation');
    expect(data.scenarios.map((s) => s.skipped)).toEqual([[2], [1]]);
  });

  it('rejects a simulation of another plan by name', () => {
    expect(() => renderReport({ plan, simulation: { ...simulation, criticalPath: ['nope'] } })).toThrow(
      /names call 'nope' \(criticalPath\), which the plan does not have/,
    );
  });
});

describe('renderReport: bad input', () => {
  const plan = compiled([{ _id: 'a', _tool: 't' }]);

  it('says what it expected', () => {
    expect(() => renderReport({} as never)).toThrow(TypeError);
    expect(() => renderReport({} as never)).toThrow(/expected \{ plan, result \} or \{ plan, simulation \}/);
    expect(() => renderReport({ plan } as never)).toThrow(/RunResult.*Simulation/);
    const other = compiled([{ _id: 'b', _tool: 't' }]);
    expect(() => renderReport({ plan, result: resultOf(other, {}) })).toThrow(/not a run of this plan/);
    expect(() => renderReport({ plan, result: resultOf(plan, {}) }, { layout: 'circle' as never })).toThrow(
      /layout must be one of auto, dagre, layered, not 'circle'/,
    );
    expect(() => renderReport({ plan, result: resultOf(plan, {}) }, { maxValueLength: 0 })).toThrow(
      /maxValueLength/,
    );
  });

  it('cuts long values and says so', () => {
    const result = resultOf(plan, { a: { status: 'succeeded', at: [0, 1], output: 'x'.repeat(500) } });
    const data = pageData(renderReport({ plan, result }, { maxValueLength: 100 }));
    expect(data.calls[0]!.output).toMatch(/^"x{99}\n… 402 more characters not shown$/);
  });
});

describe('renderReport(result) without the plan', () => {
  it('draws a result of run() or simulate() made in this process; a copy needs { plan }', async () => {
    const { run, simulate } = await import('../../src/index.js');
    const tools = [{ name: 't', outputSchema: { type: 'number' }, execute: () => 1 }];
    const doc = [
      { _id: 'a', _tool: 't', _outputPath: '†state.a' },
      { _id: 'b', _tool: 't', v: '†state.a' },
    ];
    const result = await run(doc, { tools });
    expect(pageData(renderReport(result)).calls.map((c) => c.id)).toEqual(['a', 'b']);
    const simulation = simulate(doc, { tools });
    expect((pageData(renderReport(simulation)) as { kind?: string }).kind).toBe('simulation');
    expect(() => renderReport(structuredClone(result))).toThrow(
      /this result has no plan attached .*pass \{ plan, result \}/,
    );
  });
});

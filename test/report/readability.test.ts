/**
 * The report's readability rules checked in Node, on the geometry the page draws (the browser
 * test measures the same on the rendered page).
 */
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/index.js';
import { edgePolyline } from '../../src/report/html/edge-geometry.js';
import { segmentMeetsRect } from '../../src/report/html/label-placement.js';
import { type GraphLayout, layoutGraph } from '../../src/report/html/layout.js';
import { run } from '../../src/run/index.js';
import { generatedPlan, type Shape, SHAPES, TOOLS } from './generated-plans.js';

const LABEL = { w: 90, h: 14 };

function laidOut(shape: Shape, size: number, engine: 'dagre' | 'layered' = 'dagre'): GraphLayout {
  const plan = generatedPlan(shape, size);
  return layoutGraph(plan, {
    boxes: plan.calls.map(() => ({ w: 150, h: 62 })),
    labelSize: () => LABEL,
    engine,
    dagreLimit: 300,
    direction: 'auto',
  });
}

function labelRect(layout: GraphLayout, k: number) {
  const e = layout.edges[k]!;
  return {
    x0: e.labelX - LABEL.w / 2,
    y0: e.labelY - LABEL.h / 2,
    x1: e.labelX + LABEL.w / 2,
    y1: e.labelY + LABEL.h / 2,
  };
}

/** `label k crossed by edge j` for every label some drawn edge passes through. */
function crossings(layout: GraphLayout): string[] {
  const out: string[] = [];
  const lines = layout.edges.map((e) => edgePolyline(e.points, e.curved, layout.direction));
  layout.edges.forEach((e, k) => {
    if (e.labelShown === false) return;
    const r = labelRect(layout, k);
    lines.forEach((line, j) => {
      for (let s = 1; s < line.length; s++)
        if (segmentMeetsRect(line[s - 1]!, line[s]!, r))
          return void out.push(`label ${k} crossed by edge ${j}`);
    });
  });
  return out;
}

describe('edge labels beside their edges', () => {
  it('tells a segment through a box from one passing by', () => {
    const box = { x0: 0, y0: 0, x1: 10, y1: 10 };
    expect(segmentMeetsRect({ x: -5, y: 5 }, { x: 15, y: 5 }, box)).toBe(true);
    expect(segmentMeetsRect({ x: -5, y: -5 }, { x: 15, y: 15 }, box)).toBe(true);
    expect(segmentMeetsRect({ x: 4, y: 4 }, { x: 6, y: 6 }, box)).toBe(true);
    expect(segmentMeetsRect({ x: -5, y: 12 }, { x: 15, y: 12 }, box)).toBe(false);
    expect(segmentMeetsRect({ x: -5, y: 8 }, { x: 5, y: 0 }, box)).toBe(true);
    expect(segmentMeetsRect({ x: -5, y: 8 }, { x: 8, y: 25 }, box)).toBe(false);
    expect(segmentMeetsRect({ x: -5, y: 12 }, { x: 5, y: 30 }, box)).toBe(false);
  });

  for (const shape of SHAPES) {
    for (const size of [5, 25, 50]) {
      it(`${shape}, ${size} calls (dagre): no label on an edge, a box or another label`, () => {
        const layout = laidOut(shape, size);
        expect(layout.edges.length).toBeGreaterThan(0);
        expect(layout.edges.filter((e) => e.labelShown !== true)).toEqual([]);
        expect(crossings(layout)).toEqual([]);
        const rects = layout.edges.map((_, k) => labelRect(layout, k));
        const meets = (a: (typeof rects)[number], b: (typeof rects)[number]) =>
          a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
        for (const [k, r] of rects.entries()) {
          for (const n of layout.nodes)
            expect(
              meets(r, { x0: n.x - n.w / 2, y0: n.y - n.h / 2, x1: n.x + n.w / 2, y1: n.y + n.h / 2 }),
            ).toBe(false);
          for (const o of rects.slice(k + 1)) expect(meets(r, o)).toBe(false);
          // Inside the picture.
          expect(r.x0).toBeGreaterThanOrEqual(0);
          expect(r.y0).toBeGreaterThanOrEqual(0);
          expect(r.x1).toBeLessThanOrEqual(layout.width);
          expect(r.y1).toBeLessThanOrEqual(layout.height);
        }
      });
    }
  }

  it('the layered layout draws no label across a line either: one with no clear spot is left out, and the note says how many', async () => {
    for (const shape of SHAPES) {
      const layout = laidOut(shape, 25, 'layered');
      expect(layout.engine).toBe('layered');
      expect(crossings(layout)).toEqual([]);
      // A chain has room for every label; the wide fan-out's edges crowd near the source.
      if (shape === 'chain') expect(layout.edges.every((e) => e.labelShown)).toBe(true);
    }
    const plan = generatedPlan('wide', 25);
    const result = await run(plan, { tools: TOOLS });
    const html = renderReport({ plan, result }, { layout: 'layered' });
    const drawn = html.match(/<text class="el"/g)?.length ?? 0;
    expect(drawn).toBeGreaterThan(0);
    expect(html).toContain(`; ${plan.edgeCount - drawn} edge labels left out where edges crowd`);
  });
});

describe('direction', () => {
  it('auto: a chain runs down, a fan-out runs right', () => {
    expect(laidOut('chain', 25).direction).toBe('TB');
    expect(laidOut('wide', 25).direction).toBe('LR');
  });

  it('TB puts every call below the ones it needs; the option is checked', async () => {
    const plan = generatedPlan('branching', 25);
    const result = await run(plan, { tools: TOOLS });
    const html = renderReport({ plan, result }, { direction: 'TB' });
    expect(html).toContain('data-direction="TB"');
    expect(html).toContain('top to bottom: an edge runs');
    const at = new Map<number, number>();
    for (const m of html.matchAll(
      /<g class="n[^"]*" data-i="(\d+)" transform="translate\([-\d.]+,([-\d.]+)\)">/g,
    ))
      at.set(Number(m[1]), Number(m[2]));
    for (const [to, call] of plan.calls.entries())
      for (const d of call.dependencies) expect(at.get(to)!).toBeGreaterThan(at.get(d.from)!);
    expect(renderReport({ plan, result }, { direction: 'LR' })).toContain('data-direction="LR"');
    expect(() => renderReport({ plan, result }, { direction: 'down' as never })).toThrow(
      /direction must be one of auto, LR, TB, not 'down'/,
    );
  });
});

describe('the timeline and the panel', () => {
  it('keeps the last axis label inside the timeline', async () => {
    const plan = generatedPlan('chain', 5);
    const result = await run(plan, { tools: TOOLS });
    const html = renderReport({ plan, result });
    const width = Number(/<svg id="timeline-svg"[^>]* width="(\d+)"/.exec(html)![1]);
    const labels = [
      ...html.matchAll(/<text x="([\d.]+)" y="\d+" text-anchor="(start|middle|end)">([^<]*)<\/text>/g),
    ];
    expect(labels.length).toBeGreaterThan(2);
    for (const [, x, anchor, text] of labels) {
      const w = text!.length * 6.6;
      const right = anchor === 'end' ? Number(x) : anchor === 'middle' ? Number(x) + w / 2 : Number(x) + w;
      expect(right, text).toBeLessThanOrEqual(width);
    }
  });

  it("gives a handled failure's error once: not again as its output", async () => {
    const plan = generatedPlan('branching', 10);
    const result = await run(plan, { tools: TOOLS });
    const i = result.calls.findIndex((c) => c.handled);
    expect(result.calls[i]!.output).toBeDefined();
    const data = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(
      renderReport({ plan, result }),
    )!;
    const call = (JSON.parse(data[1]!) as { calls: Record<string, unknown>[] }).calls[i]!;
    expect(call.error).toContain('503 Service Unavailable');
    expect(call.output).toBeUndefined();
  });
});

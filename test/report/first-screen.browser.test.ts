/**
 * The report's first screen at the default window size (1400 x 900), in a real headless
 * Chromium (as html-report.browser.test.ts): for a plan of up to 30 calls, whatever its shape,
 * every call's box is inside the graph's visible area before any scroll or zoom, and every text
 * in a box is drawn at 11 px or more (its computed font size times the graph's scale) and stays
 * inside its box.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/index.js';
import { run } from '../../src/run/index.js';
import { simulate } from '../../src/simulate/index.js';
import { openPage, useChromium } from './browser-page.js';
import { FIRST_SCREEN_SHAPES, FIRST_SCREEN_TOOLS, firstScreenPlan } from './generated-plans.js';

const OUT = join(import.meta.dirname, '..', '..', 'test-output', 'report');
const SHOTS = process.env.REPORT_SHOTS ?? '/tmp/report-shots';
const TIMEOUT = 120_000;

interface FirstScreen {
  readonly nodes: number;
  /** Calls whose box is not wholly inside the graph's visible area (and the window). */
  readonly outside: readonly string[];
  /** Smallest rendered size of a text in a call's box, in CSS px. */
  readonly minNodeTextPx: number;
  /** Texts that stick out of their call's box. */
  readonly overflowing: readonly string[];
  readonly zoom: string;
}

/** DOM geometry at the page's first paint, as plain JavaScript for `page.evaluate`. */
const MEASURE_FIRST_SCREEN = String.raw`(() => {
  const svg = document.getElementById('graph-svg');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const box = document.getElementById('graph');
  const b = box.getBoundingClientRect();
  const left = Math.max(0, b.left + box.clientLeft);
  const top = Math.max(0, b.top + box.clientTop);
  const right = Math.min(window.innerWidth, b.left + box.clientLeft + box.clientWidth);
  const bottom = Math.min(window.innerHeight, b.top + box.clientTop + box.clientHeight);
  const outside = [];
  const overflowing = [];
  let minNodeTextPx = Infinity;
  const groups = [...svg.querySelectorAll('g.n')];
  for (const g of groups) {
    const id = g.querySelector('.nid').textContent;
    const r = g.querySelector('.shape').getBoundingClientRect();
    if (r.left < left - 0.5 || r.top < top - 0.5 || r.right > right + 0.5 || r.bottom > bottom + 0.5)
      outside.push(id + ' at ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',') + ' in ' + [left, top, right, bottom].map(Math.round).join(','));
    for (const t of g.querySelectorAll('text')) {
      minNodeTextPx = Math.min(minNodeTextPx, parseFloat(getComputedStyle(t).fontSize) * scale);
      const q = t.getBoundingClientRect();
      if (q.left < r.left - 0.5 || q.right > r.right + 0.5 || q.top < r.top - 0.5 || q.bottom > r.bottom + 0.5)
        overflowing.push(id + ': ' + t.textContent);
    }
  }
  return { nodes: groups.length, outside, minNodeTextPx, overflowing, zoom: document.getElementById('zoom-level').textContent };
})()`;

const chromium = useChromium();
beforeAll(() => {
  mkdirSync(OUT, { recursive: true });
  mkdirSync(SHOTS, { recursive: true });
});

async function firstScreen(html: string, name: string): Promise<FirstScreen> {
  const file = join(OUT, `first-screen-${name}.html`);
  writeFileSync(file, html);
  const { page, problems } = await openPage(chromium.browser, pathToFileURL(file).href);
  try {
    const measured = (await page.evaluate(MEASURE_FIRST_SCREEN)) as FirstScreen;
    await page.screenshot({ path: join(SHOTS, `first-screen-${name}.png`) });
    expect(problems).toEqual([]);
    return measured;
  } finally {
    await page.close();
  }
}

describe('the first screen shows the whole graph of a plan up to 30 calls (1400 x 900)', () => {
  const rows: string[] = [];
  afterAll(() => {
    if (rows.length > 0)
      console.log(
        ['| plan | zoom | node text px | calls outside |', '|---|---|---|---|', ...rows].join('\n'),
      );
  });

  for (const shape of FIRST_SCREEN_SHAPES) {
    for (const size of [12, 30]) {
      it(
        `${shape}, ${size} calls: every call in view, its text 11 px or more and inside its box`,
        async () => {
          const plan = firstScreenPlan(shape, size);
          expect(plan.calls.length).toBe(size);
          const result = await run(plan, { tools: FIRST_SCREEN_TOOLS });
          const m = await firstScreen(renderReport({ plan, result }), `${shape}-${size}`);
          rows.push(`| ${shape} ${size} | ${m.zoom} | ${m.minNodeTextPx.toFixed(1)} | ${m.outside.length} |`);
          expect(m.nodes).toBe(size);
          expect(m.outside, m.outside.join('\n')).toEqual([]);
          expect(m.minNodeTextPx).toBeGreaterThanOrEqual(11);
          expect(m.overflowing).toEqual([]);
        },
        TIMEOUT,
      );
    }
  }

  it(
    'a dry run of 30 branching calls too, its scenario buttons above the graph',
    async () => {
      const plan = firstScreenPlan('branching', 30);
      const html = renderReport({ plan, simulation: simulate(plan, { tools: FIRST_SCREEN_TOOLS }) });
      const m = await firstScreen(html, 'dry-run-branching-30');
      rows.push(
        `| dry run, branching 30 | ${m.zoom} | ${m.minNodeTextPx.toFixed(1)} | ${m.outside.length} |`,
      );
      expect(m.outside, m.outside.join('\n')).toEqual([]);
      expect(m.minNodeTextPx).toBeGreaterThanOrEqual(11);
      expect(m.overflowing).toEqual([]);
    },
    TIMEOUT,
  );
});

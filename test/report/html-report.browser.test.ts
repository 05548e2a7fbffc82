/**
 * The HTML report in a real headless Chromium (Debian's `chromium` package; npm test installs it when it can):
 * a bundled example run for real, and a 1,000-call run. The pages and a screenshot go to
 * test-output/report/. Without a browser this file fails with a message saying how to get one.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import type { CompiledPlan } from '../../src/compile/types.js';
import type { JsonObject } from '../../src/language/index.js';
import { renderReport } from '../../src/report/index.js';
import { type LatentFunction, run } from '../../src/run/index.js';
import type { Tool } from '../../src/tools/index.js';
import { EXAMPLES } from '../fixtures/fixtures.js';
import { openPage, useChromium } from './browser-page.js';
import { generatedPlan, SHAPES, TOOLS } from './generated-plans.js';
import { MEASURE_PAGE, type PageMeasures } from './measure-page.js';

const OUT = join(import.meta.dirname, '..', '..', 'test-output', 'report');
const TIMEOUT = 120_000;
/** Where the readability test leaves its screenshots, named `<shape>-<calls>-<tag>.png`. */
const SHOTS = process.env.REPORT_SHOTS ?? '/tmp/report-shots';
const SHOTS_TAG = process.env.REPORT_SHOTS_TAG ?? 'after';

const chromium = useChromium();
beforeAll(() => mkdirSync(OUT, { recursive: true }));

/** Opens a report file, collecting every console error, page error and request it causes. */
function open(file: string, viewport = { width: 1400, height: 900 }) {
  return openPage(chromium.browser, pathToFileURL(file).href, { viewport });
}

describe('the run report in Chromium', () => {
  it(
    'shows a bundled example: one node per call, the timeline, details on click',
    async () => {
      const dir = join(EXAMPLES, 'weather-branch');
      const module = (await import(pathToFileURL(join(dir, 'tools.mjs')).href)) as {
        tools: Tool[];
        latent?: LatentFunction;
      };
      const input = JSON.parse(readFileSync(join(dir, 'input.json'), 'utf8')) as JsonObject;
      const compiled = compile(readFileSync(join(dir, 'plan.json'), 'utf8'), { tools: module.tools, input });
      const plan = compiled.plan!;
      const result = await run(plan, {
        tools: module.tools,
        input,
        ...(module.latent && { latent: module.latent }),
      });
      expect(result.status).toBe('succeeded');
      const file = join(OUT, 'weather-branch.html');
      writeFileSync(file, renderReport({ plan, result }));

      const { page, problems } = await open(file);
      try {
        expect(await page.locator('#graph-svg g.n').count()).toBe(plan.calls.length);
        for (const call of plan.calls)
          await expect(
            page.locator(`#graph-svg g.n[data-i="${call.index}"] .nid`).textContent(),
          ).resolves.toBe(call.id);
        // Paris is sunny: the movie branch is skipped, so three calls have bars.
        expect(await page.locator('#timeline-svg rect.bar').count()).toBe(3);
        await expect(page.locator('#graph-svg g.n.s-skipped .nid').textContent()).resolves.toBe('movie');

        const details = page.locator('#details');
        await expect(details.textContent()).resolves.toContain('Click a call');
        await page.locator('#graph-svg g.n[data-i="1"]').click();
        await expect(details.locator('h2').textContent()).resolves.toBe('park');
        const shown = (await details.textContent()) ?? '';
        expect(shown).toContain('findPark');
        expect(shown).toContain('Jardin du Luxembourg');
        expect(shown).toContain('"city": "Paris"');
        expect(await page.locator('.sel').count()).toBe(2); // the node and its bar

        // A bar selects too; a dependency button jumps to that call.
        await page.locator('#timeline-svg rect.bar[data-i="0"]').click();
        await expect(details.locator('h2').textContent()).resolves.toBe('weather');
        await expect(details.textContent()).resolves.toContain('sunny');
        await page.locator('#graph-svg g.n[data-i="1"]').click();
        // The first: the panel's explain section links the same call again.
        await page.locator('#details button[data-go="0"]').first().click();
        await expect(details.locator('h2').textContent()).resolves.toBe('weather');

        await page.screenshot({ path: join(OUT, 'weather-branch.png') });
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );

  it(
    'opens a 1,000-call report without errors, with 1,000 nodes',
    async () => {
      const { plan, tools } = thousandCalls();
      const result = await run(plan, { tools, concurrency: 32 });
      expect(result.status).toBe('failed');
      const started = performance.now();
      const html = renderReport({ plan, result });
      const renderMs = performance.now() - started;
      const file = join(OUT, 'thousand-calls.html');
      writeFileSync(file, html);

      const opened = performance.now();
      const { page, problems } = await open(file);
      const openMs = performance.now() - opened;
      try {
        expect(await page.locator('#graph-svg g.n').count()).toBe(1000);
        const ran = result.calls.filter((c) => c.startedAt !== null).length;
        expect(ran).toBeGreaterThan(500);
        expect(await page.locator('#timeline-svg rect.bar').count()).toBe(ran);
        // c500's failure cascades: the graph shows the calls downstream of it.
        expect(await page.locator('#graph-svg g.n.s-failed').count()).toBe(1);
        expect(await page.locator('#graph-svg g.n.s-upstream_failed').count()).toBe(1000 - ran);
        await page.locator('#graph-svg g.n[data-i="999"]').click();
        await expect(page.locator('#details h2').textContent()).resolves.toBe('c999');
        await expect(page.locator('#details').textContent()).resolves.toContain('never');
        await page.screenshot({ path: join(OUT, 'thousand-calls.png') });
        expect(problems).toEqual([]);
        console.log(
          `1,000-call report: rendered in ${renderMs.toFixed(0)} ms, ${(html.length / 1024).toFixed(0)} KiB, opened in Chromium in ${openMs.toFixed(0)} ms`,
        );
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );
});

/** 1,000 calls in layers, each reading up to two values of the 40 calls before it; call 500 throws. */
function thousandCalls(): { plan: CompiledPlan; tools: Tool[] } {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const calls = Array.from({ length: 1000 }, (_, i) => {
    const args: Record<string, string> = {};
    if (i >= 20)
      for (let k = 0; k < 2; k++) args[`a${k}`] = `†state.v${Math.floor(i - 1 - random() * Math.min(i, 40))}`;
    return { _id: `c${i}`, _tool: i === 500 ? 'broken' : 'work', ...args, _outputPath: `†state.v${i}` };
  });
  const tools: Tool[] = [
    { name: 'work', execute: async () => ({ ok: true }) },
    {
      name: 'broken',
      execute: () => {
        throw new Error('broken on purpose');
      },
    },
  ];
  const compiled = compile(calls, { tools });
  if (!compiled.plan) throw new Error(JSON.stringify(compiled.diagnostics));
  return { plan: compiled.plan, tools };
}

describe('the report is readable at its default view (1280 x 800)', () => {
  const measured: Record<string, PageMeasures> = {};
  afterAll(() => {
    if (Object.keys(measured).length === 0) return;
    const rows = Object.entries(measured).map(
      ([name, m]) =>
        `| ${name} | ${m.zoom} | ${m.minNodeTextPx.toFixed(1)} | ${m.minEdgeLabelPx.toFixed(1)} | ${m.labelsCrossed.length} | ${m.labelsOverlapping.length} | ${m.axisClipped.length} | ${(m.graphBoxShare * 100).toFixed(0)}% | ${(m.svgShare * 100).toFixed(0)}% | ${m.scrollsSideways ? 'yes' : 'no'} |`,
    );
    console.log(
      [
        '| report | zoom | node text px | edge label px | labels crossed | labels overlapping | axis labels clipped | graph box / column | graph / box | scrolls sideways |',
        '|---|---|---|---|---|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
    );
  });

  for (const shape of SHAPES) {
    for (const size of [5, 25, 50]) {
      it(
        `${shape}, ${size} calls: text of 11 px or more, no label crossed, axis whole, the graph as wide as the column`,
        async () => {
          const plan = generatedPlan(shape, size);
          const result = await run(plan, { tools: TOOLS });
          const file = join(OUT, `readable-${shape}-${size}.html`);
          const html = renderReport({ plan, result });
          writeFileSync(file, html);
          const { page, problems } = await open(file, { width: 1280, height: 800 });
          try {
            const m = (await page.evaluate(MEASURE_PAGE)) as PageMeasures;
            measured[`${shape} ${size}`] = m;
            mkdirSync(SHOTS, { recursive: true });
            await page.screenshot({ path: join(SHOTS, `${shape}-${size}-${SHOTS_TAG}.png`) });
            expect(m.minNodeTextPx).toBeGreaterThanOrEqual(11);
            // A small plan folded to be seen whole on the first screen may leave labels out
            // where its bands crowd; the graph's note counts them.
            if (html.includes('folded into')) {
              const left = plan.edgeCount - m.edgeLabels;
              if (left > 0) expect(html).toContain(`; ${left} edge label${left === 1 ? '' : 's'} left out`);
            } else expect(m.edgeLabels).toBe(plan.edgeCount);
            expect(m.edges).toBe(plan.edgeCount);
            expect(m.labelsCrossed).toEqual([]);
            expect(m.labelsOverlapping).toEqual([]);
            expect(m.axisClipped).toEqual([]);
            expect(m.graphBoxShare).toBeGreaterThanOrEqual(0.9);
            // The drawing fills its box's width, or its height when the whole graph is shown,
            // unless it is already at the largest default zoom (a small graph is not blown up
            // further) or at the smallest that keeps text at 11 px (then it scrolls).
            if (m.zoom !== '125%' && !m.scrollsSideways && !m.fillsHeight)
              expect(m.svgShare).toBeGreaterThanOrEqual(0.9);
            expect(problems).toEqual([]);
          } finally {
            await page.close();
          }
        },
        TIMEOUT,
      );
    }
  }

  it(
    'a dry run of 50 branching calls: the same measures on its step timeline',
    async () => {
      const plan = generatedPlan('branching', 50);
      const { simulate } = await import('../../src/simulate/index.js');
      const file = join(OUT, 'readable-dry-run-50.html');
      writeFileSync(file, renderReport({ plan, simulation: simulate(plan, { tools: TOOLS }) }));
      const { page, problems } = await open(file, { width: 1280, height: 800 });
      try {
        const m = (await page.evaluate(MEASURE_PAGE)) as PageMeasures;
        measured['dry run, branching 50'] = m;
        await page.screenshot({ path: join(SHOTS, `dry-run-50-${SHOTS_TAG}.png`) });
        expect(m.minNodeTextPx).toBeGreaterThanOrEqual(11);
        expect(m.edgeLabels).toBe(plan.edgeCount);
        expect(m.labelsCrossed).toEqual([]);
        expect(m.labelsOverlapping).toEqual([]);
        expect(m.axisClipped).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );

  it(
    'the side panel says each fact once: a handled failure and an unhandled one show their error once',
    async () => {
      const plan = generatedPlan('branching', 25);
      const result = await run(plan, { tools: TOOLS });
      const handled = result.calls.findIndex((c) => c.handled);
      const unhandled = result.calls.findIndex((c) => c.status === 'failed' && !c.handled);
      expect(handled).toBeGreaterThanOrEqual(0);
      expect(unhandled).toBeGreaterThanOrEqual(0);
      const file = join(OUT, 'readable-panel.html');
      writeFileSync(file, renderReport({ plan, result }));
      const { page, problems } = await open(file, { width: 1280, height: 800 });
      try {
        for (const i of [handled, unhandled]) {
          await page.locator(`#graph-svg g.n[data-i="${i}"]`).click();
          await expect(page.locator('#details h2').textContent()).resolves.toBe(plan.calls[i]!.id);
          const shown = (await page.locator('#details').textContent()) ?? '';
          const message = result.calls[i]!.error!.message;
          expect(shown.split(message).length - 1, `${plan.calls[i]!.id}: ${shown}`).toBe(1);
          const blocks = await page.locator('#details pre').allTextContents();
          expect(new Set(blocks).size).toBe(blocks.length);
          if (i === handled) await page.screenshot({ path: join(SHOTS, `panel-handled-${SHOTS_TAG}.png`) });
        }
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );
});

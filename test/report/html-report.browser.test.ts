/**
 * The HTML report in a real headless Chromium (Debian's `chromium` package; .ci/run installs it):
 * a bundled example run for real, and a 1,000-call run. The pages and a screenshot go to
 * test-output/report/. Without a browser this file fails with a message saying how to get one.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import type { CompiledPlan } from '../../src/compile/types.js';
import type { JsonObject } from '../../src/language/index.js';
import { renderReport } from '../../src/report/index.js';
import { type LatentFunction, run } from '../../src/run/index.js';
import type { Tool } from '../../src/tools/index.js';
import { EXAMPLES } from '../fixtures/fixtures.js';

const CHROMIUM = process.env.PLAN_CHROMIUM ?? '/usr/bin/chromium';
const OUT = join(import.meta.dirname, '..', '..', 'test-output', 'report');
const TIMEOUT = 120_000;

let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the browser test needs Chromium at ${CHROMIUM}: install it with 'apt-get install -y chromium' (.ci/run does), or point PLAN_CHROMIUM at a Chromium binary`,
    );
  }
  mkdirSync(OUT, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, TIMEOUT);

afterAll(async () => {
  await browser?.close();
});

/** Opens a report file and collects every console error and page error it causes. */
async function open(file: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) problems.push(`network request: ${r.url()}`);
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
  return { page, problems };
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
        await page.locator('#details button[data-go="0"]').click();
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

/**
 * The report's details panel answers `plan explain`'s three questions for the selected call, in
 * a real headless Chromium (as html-report.browser.test.ts): why it waits, what its failure or
 * skip would block, and the independent parts; a plan too large to explain call by call says so.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile/index.js';
import { renderReport } from '../../src/report/index.js';
import { MAX_EXPLAINED_CALLS } from '../../src/report/html/explain-data.js';
import { run } from '../../src/run/index.js';
import type { Tool } from '../../src/tools/index.js';
import { openPage, useChromium } from './browser-page.js';

const OUT = join(import.meta.dirname, '..', '..', 'test-output', 'report');
const TIMEOUT = 120_000;

const chromium = useChromium();
beforeAll(() => mkdirSync(OUT, { recursive: true }));

const tools: Tool[] = [{ name: 't', execute: () => 'x' }];

async function reportPage(calls: Record<string, unknown>[], name: string) {
  const plan = compile(calls, { tools }).plan!;
  const result = await run(plan, { tools });
  const file = join(OUT, `${name}.html`);
  writeFileSync(file, renderReport({ plan, result }));
  return openPage(chromium.browser, pathToFileURL(file).href);
}

describe('the details panel explains the selected call', () => {
  it(
    'shows why it waits, what it would block by status, and the independent parts',
    async () => {
      const { page, problems } = await reportPage(
        [
          { _id: 'weather', _tool: 't', _outputPath: '†state.sunny || †state.notSunny' },
          { _id: 'park', _tool: 't', w: '†state.sunny', _outputPath: '†state.park' },
          { _id: 'movie', _tool: 't', w: '†state.notSunny', _outputPath: '†state.movie' },
          { _id: 'present', _tool: 't', idea: '†state.park || †state.movie' },
          { _id: 'log', _tool: 't', _after: ['park'] },
          { _id: 'alone', _tool: 't' },
        ],
        'explain-panel',
      );
      try {
        const details = page.locator('#details');
        await page.locator('#graph-svg g.n[data-i="1"]').click();
        await expect(details.locator('h2').textContent()).resolves.toBe('park');
        const explain = details.locator('section.explain');
        const text = (await explain.textContent()) ?? '';
        expect(text).toContain('Why it waits');
        expect(text).toContain('waits forweather †state.sunny');
        expect(text).toContain('longest chain (2)weather → †state.sunny → park');
        expect(text).toContain('What its failure or skip would block (2 downstream)');
        expect(text).toContain('if it fails unhandledupstream_failed: log; may still run: present');
        expect(text).toContain('if it is skippedmay still run: present log');
        expect(text).toContain('parts2 with no edge between them');
        expect(text).toContain('this partweather park movie present log');
        // A call in an answer is a link to it.
        await explain.locator('button[data-go="4"]').first().click();
        await expect(details.locator('h2').textContent()).resolves.toBe('log');
        await expect(explain.textContent()).resolves.toContain('waits forpark _after');
        await page.screenshot({ path: join(OUT, 'explain-panel.png') });
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );

  it(
    `points to plan explain for a plan over ${MAX_EXPLAINED_CALLS} calls`,
    async () => {
      const calls = Array.from({ length: MAX_EXPLAINED_CALLS + 1 }, (_, i) => ({ _id: `c${i}`, _tool: 't' }));
      const { page, problems } = await reportPage(calls, 'explain-panel-large');
      try {
        await page.locator('#graph-svg g.n[data-i="0"]').click();
        await expect(page.locator('#details').textContent()).resolves.toContain(
          'Too many calls to explain each here: plan explain <file> c0 answers for this one.',
        );
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );
});

/**
 * The HTML report of a plan that composes, in a real headless Chromium (as html-report.browser
 * .test.ts): a `_forEach` call is one node with its element count and statuses, its details list
 * each element; a workflow call opens onto its plan's graph, and a workflow inside that opens too.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, run, simulate, type Tool, ToolRegistry } from '../../src/index.js';
import { renderReport } from '../../src/report/index.js';
import { openPage, useChromium } from './browser-page.js';

const OUT = join(import.meta.dirname, '..', '..', 'test-output', 'report');
const TIMEOUT = 120_000;

const fetchPage: Tool = {
  name: 'fetchPage',
  execute: (args: { url?: unknown }) => {
    if (args.url === 'b') throw new Error('page b is gone');
    return `text of ${String(args.url)}`;
  },
};
const summarize: Tool = {
  name: 'summarize',
  plan: [
    { _id: 'get', _tool: 'fetchPage', url: '†input.url', _outputPath: '†state.text' },
    { _id: 'cut', _tool: 'fetchPage', url: '†state.text', _outputPath: '†state.short' },
  ],
  output: '†state.short',
};
const research: Tool = {
  name: 'research',
  plan: [
    { _id: 'first', _tool: 'summarize', url: '†input.url', _outputPath: '†state.one' },
    { _id: 'again', _tool: 'fetchPage', url: '†state.one', _outputPath: '†state.two' },
  ],
  output: '†state.two',
};
const tools = new ToolRegistry([fetchPage, summarize, research]);
const input = { urls: ['a', 'b', 'c', 'd'] };
const plan = compile(
  [
    { _id: 'deep', _tool: 'research', url: 'x', _outputPath: '†state.deep' },
    { _id: 'pages', _tool: 'fetchPage', _forEach: '†input.urls', url: '†item', _outputPath: '†state.pages' },
  ],
  { tools, input },
).plan!;

/** An SVG element's box, as the page measures it (the test project has no DOM types). */
interface Boxed {
  getBBox(): { x: number; y: number; width: number; height: number };
}

const chromium = useChromium();
beforeAll(() => mkdirSync(OUT, { recursive: true }));

function open(name: string, html: string) {
  const file = join(OUT, name);
  writeFileSync(file, html);
  return openPage(chromium.browser, pathToFileURL(file).href);
}

describe('the report of a plan that composes, in Chromium', () => {
  it(
    'shows a for-each call as one node with its element count and statuses, each element in its details',
    async () => {
      const result = await run(plan, { tools, input, concurrency: 1 });
      expect(result.calls[1]!.status).toBe('failed');
      const { page, problems } = await open('composed-run.html', renderReport({ plan, result }));
      try {
        expect(await page.locator('#graph-svg g.n').count()).toBe(2);
        const node = page.locator('#graph-svg g.n[data-i="1"]');
        await expect(node.locator('.nnote').allTextContents()).resolves.toEqual([
          'for each †input.urls',
          '4 elements: 1 succeeded, 1 failed, 2 not run',
        ]);
        // The notes fit inside the node's box.
        const fits = await node.evaluate((g) => {
          const box = (g.querySelector('.shape') as unknown as Boxed).getBBox();
          return [...g.querySelectorAll('text')].every((t) => {
            const b = (t as unknown as Boxed).getBBox();
            return (
              b.x >= box.x && b.x + b.width <= box.x + box.width && b.y + b.height <= box.y + box.height + 1
            );
          });
        });
        expect(fits).toBe(true);
        await node.click();
        const details = page.locator('#details');
        await expect(details.locator('h2').textContent()).resolves.toBe('pages');
        const shown = (await details.textContent()) ?? '';
        expect(shown).toContain('for each†input.urls');
        await expect(details.locator('.elist li').allTextContents()).resolves.toEqual([
          '#0 succeeded',
          '#1 failed: page b is gone',
          '#2 not run',
          '#3 not run',
        ]);
        await expect(details.locator('.elist li.failed').count()).resolves.toBe(1);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );

  it(
    'opens a workflow call onto its plan, and a workflow inside it onto its own, then back',
    async () => {
      const result = await run(plan, { tools, input, concurrency: 1 });
      const { page, problems } = await open('composed-workflow.html', renderReport({ plan, result }));
      try {
        const view = page.locator('#wf-view');
        expect(await view.isVisible()).toBe(false);
        await page.locator('#graph-svg g.n[data-i="0"]').click();
        expect(await view.isVisible()).toBe(true);
        await expect(page.locator('#wf-title').textContent()).resolves.toBe('Workflow research (2 calls)');
        const inner = page.locator('#wf-graph svg g.n');
        await expect(inner.locator('.nid').allTextContents()).resolves.toEqual(['first', 'again']);
        // The calls inside in the colours of how they ended in this call's sub-run.
        expect(await page.locator('#wf-graph svg g.n.s-succeeded').count()).toBe(2);
        await expect(view.textContent()).resolves.toContain("as it ended in this call's sub-run");
        // The main graph's node indices stay its own: the inner nodes are not selectable calls.
        expect(await page.locator('#wf-graph [data-i]').count()).toBe(0);

        await page.locator('#wf-graph svg g.n[data-wf]').click();
        await expect(page.locator('#wf-title').textContent()).resolves.toBe('Workflow summarize (2 calls)');
        await expect(inner.locator('.nid').allTextContents()).resolves.toEqual(['get', 'cut']);
        await page.locator('[data-wf-back]').click();
        await expect(page.locator('#wf-title').textContent()).resolves.toBe('Workflow research (2 calls)');
        expect(await page.locator('[data-wf-back]').isVisible()).toBe(false);

        // The details panel opens it too; close hides it.
        await page.locator('#details button[data-wf]').click();
        expect(await view.isVisible()).toBe(true);
        await page.locator('[data-wf-close]').click();
        expect(await view.isVisible()).toBe(false);
        // Selecting an ordinary call leaves it closed.
        await page.locator('#graph-svg g.n[data-i="1"]').click();
        expect(await view.isVisible()).toBe(false);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );

  it(
    'opens a workflow call in the dry run report too',
    async () => {
      const simulation = simulate(plan, { tools, input });
      const { page, problems } = await open('composed-dry-run.html', renderReport({ plan, simulation }));
      try {
        await expect(page.locator('#graph-svg g.n[data-i="1"] .nnote').allTextContents()).resolves.toEqual([
          'for each †input.urls',
        ]);
        await page.locator('#graph-svg g.n[data-i="0"]').click();
        await expect(page.locator('#wf-graph svg g.n .nid').allTextContents()).resolves.toEqual([
          'first',
          'again',
        ]);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );
});
